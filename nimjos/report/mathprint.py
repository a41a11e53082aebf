"""Expression nodes sympy has no class for, and the LaTeX and MathML printers that print them.

:mod:`nimjos.report.formula` turns a formula into a sympy tree. Most of it is sympy's own classes
(Add, Mul, Pow, floor, ceiling, Mod, Min, Max, Piecewise, Sum, Lambda, Tuple); what sympy cannot
express (bitwise operators, chained comparisons, named functions of the spec, G(game, position), set
families, quantifiers over a range, untranslatable text) is one of the small node classes here. The
nodes never evaluate; they only print.

The printers keep the order in which the formula was written (sympy's default printers may sort
the arguments of a sum or a product) and build MathML through the DOM, so every text is escaped.

>>> from sympy import Symbol
>>> x, y = Symbol("x"), Symbol("y")
>>> e = Infix(Op("|"), x, y)
>>> latex(e)
'x \\\\mathbin{\\\\mathrm{OR}} y'
>>> mathml(e)
'<mrow><mi>x</mi><mo>OR</mo><mi>y</mi></mrow>'
"""
from __future__ import annotations

import html
import re
from xml.sax.saxutils import escape as xml_escape

from sympy import Basic, Expr, Mul, Pow, S, Symbol, sympify
from sympy.logic.boolalg import Boolean
from sympy.printing.latex import LatexPrinter
from sympy.printing.mathml import MathMLPresentationPrinter
from sympy.printing.precedence import PRECEDENCE

#: operator key -> (LaTeX, MathML text)
OPERATORS = {
    "|": (r"\mathbin{\mathrm{OR}}", "OR"),
    "&": (r"\mathbin{\mathrm{AND}}", "AND"),
    "xor": (r"\oplus", "\u2295"),
    "<<": (r"\ll", "\u226a"),
    ">>": (r"\gg", "\u226b"),
    "~": (r"\mathord{\sim}", "\u223c"),
    "and": (r"\wedge", "\u2227"),
    "or": (r"\vee", "\u2228"),
    "not": (r"\neg", "\u00ac"),
    "==": ("=", "="),
    "!=": (r"\neq", "\u2260"),
    "<": ("<", "<"),
    "<=": (r"\leq", "\u2264"),
    ">": (">", ">"),
    ">=": (r"\geq", "\u2265"),
    "in": (r"\in", "\u2208"),
    "not in": (r"\notin", "\u2209"),
    "union": (r"\cup", "\u222a"),
    "implies": (r"\Rightarrow", "\u21d2"),
    "all": (r"\forall", "\u2200"),
    "any": (r"\exists", "\u2203"),
}

MINUS = "\u2212"

_ENTITY = re.compile(r"&(#[0-9]+|#x[0-9A-Fa-f]+|[A-Za-z]+);")

_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
                  "^": r"\^{}", "_": r"\_", "%": r"\%", "~": r"\~{}"}


def latex_text(text: str) -> str:
    r"""`text` as a LaTeX ``\text{...}`` with the special characters escaped.

    >>> print(latex_text("a_b {c}"))
    \text{a\_b \{c\}}
    """
    return r"\text{" + "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text) + "}"


class TextAtom(Symbol):
    """Text printed as it is (upright): what could not be translated, or a game's name."""


class Op(Symbol):
    """An operator inside an :class:`Infix`, :class:`Prefix` or :class:`Chain`, named by a key of OPERATORS."""


class Node(Expr):
    """A number-valued node: its arguments are kept as given and it never evaluates."""

    def __new__(cls, *args):
        return Basic.__new__(cls, *[sympify(a) for a in args])


class BoolNode(Boolean):
    """A truth-valued node (usable as a Piecewise condition); never evaluates."""

    def __new__(cls, *args):
        return Basic.__new__(cls, *[sympify(a) for a in args])


class Paren(Node):
    """Parentheses the formula had (where its operators need them)."""


class BoolParen(BoolNode):
    """Parentheses around a truth-valued part."""


class Infix(Node):
    """``a OP b OP c``: args = (Op, a, b, ...), for bitwise operators, xor and set union."""


class BoolInfix(BoolNode):
    """``a and b and c`` / ``a or b``: args = (Op, a, b, ...)."""


class Prefix(Node):
    """``~a``: args = (Op, a)."""


class BoolPrefix(BoolNode):
    """``not a``: args = (Op, a)."""


class Chain(BoolNode):
    """A chained comparison ``a < b <= c``: args = (a, Op, b, Op, c, ...)."""


class Call(Node):
    """A named function applied to arguments: args = (TextAtom name, arg, ...)."""


class Grundy(Node):
    """``G(game, position)``: args = (game, coordinate, ...), printed as a calligraphic G with the game below."""


class Subscript(Node):
    """``t[i]``: args = (t, i)."""


class SetLiteral(Node):
    """``{a, b, c}`` in the written order."""


class SetBuilder(Node):
    """``{element : condition}``: a family of points of a P-position or level-set claim."""


class Iterate(Node):
    """``iterate(f, p, x)``: f applied p times to x, printed f^(p)(x)."""


class Binders(BoolNode):
    """The ``for`` and ``if`` clauses of a comprehension: ``i in D`` chains and conditions, comma-separated."""


class Quantifier(BoolNode):
    """``all(...)``/``any(...)`` of a generator: args = (Op all|any, Binders, body)."""


class Reduce(Node):
    """``min``/``max``/``sum`` of a generator: args = (TextAtom name, Binders, body)."""


class Apply(Node):
    """A function that is itself an expression, applied: ``GS(allbut(T))(n)``; args = (function, arg, ...)."""


class IntRange(Node):
    """The integers low..high (``range(low, high + 1)``): args = (low, high)."""


def split_fraction(expr: Mul) -> tuple[list, list]:
    """The factors of a product above and below the fraction bar, in written order.

    >>> from sympy import Symbol, Pow
    >>> a, b, c = Symbol("a"), Symbol("b"), Symbol("c")
    >>> split_fraction(Mul(a, Pow(b, -1, evaluate=False), c, evaluate=False))
    ([a, c], [b])
    """
    above, below = [], []
    for factor in expr.args:
        if isinstance(factor, Pow) and factor.exp.is_negative:
            below.append(factor.base if factor.exp == -1 else Pow(factor.base, -factor.exp, evaluate=False))
        else:
            above.append(factor)
    return above, below


def product(factors: list):
    """One factor as itself, several as an unevaluated product, none as 1.

    >>> from sympy import Symbol
    >>> product([]), product([Symbol("a")]), product([Symbol("a"), Symbol("b")])
    (1, a, a*b)
    """
    if not factors:
        return S.One
    return factors[0] if len(factors) == 1 else Mul(*factors, evaluate=False)


def _split_name(name: str) -> tuple[str, str]:
    """A function or symbol name split into its letters and a trailing digit subscript.

    >>> _split_name("v2"), _split_name("ilog2"), _split_name("G")
    (('v', '2'), ('ilog2', ''), ('G', ''))
    """
    m = re.fullmatch(r"([A-Za-z])(\d+)", name)
    return (m.group(1), m.group(2)) if m else (name, "")


class FormulaLatexPrinter(LatexPrinter):
    """LaTeX for the nodes above, keeping the written order of sums and products."""

    def __init__(self):
        super().__init__({"order": "none", "mul_symbol": None})

    def _op(self, op: Op) -> str:
        return OPERATORS[op.name][0]

    def _print_TextAtom(self, e, exp=None):
        return latex_text(e.name)

    def _print_Op(self, e, exp=None):
        return self._op(e)

    def _print_Paren(self, e, exp=None):
        return r"\left(%s\right)" % self._print(e.args[0])

    _print_BoolParen = _print_Paren

    def _print_Infix(self, e, exp=None):
        return (" %s " % self._op(e.args[0])).join(self._print(a) for a in e.args[1:])

    _print_BoolInfix = _print_Infix

    def _print_Prefix(self, e, exp=None):
        return "%s %s" % (self._op(e.args[0]), self._print(e.args[1]))

    _print_BoolPrefix = _print_Prefix

    def _print_Chain(self, e, exp=None):
        return " ".join(self._op(a) if isinstance(a, Op) else self._print(a) for a in e.args)

    def _name(self, name: str) -> str:
        if name in ("min", "max", "gcd"):
            return "\\" + name
        base, sub = _split_name(name)
        base = base if len(base) == 1 else r"\operatorname{%s}" % base.replace("_", r"\_")
        return base + ("_{%s}" % sub if sub else "")

    def _print_Call(self, e, exp=None):
        args = ", ".join(self._print(a) for a in e.args[1:])
        return r"%s\left(%s\right)" % (self._name(e.args[0].name), args)

    def _print_Grundy(self, e, exp=None):
        coords = ", ".join(self._print(a) for a in e.args[1:])
        return r"\mathcal{G}_{%s}\left(%s\right)" % (self._print(e.args[0]), coords)

    def _print_Subscript(self, e, exp=None):
        return "{%s}_{%s}" % (self._print(e.args[0]), self._print(e.args[1]))

    def _print_SetLiteral(self, e, exp=None):
        return r"\left\{%s\right\}" % ", ".join(self._print(a) for a in e.args)

    def _print_SetBuilder(self, e, exp=None):
        return r"\left\{%s \;:\; %s\right\}" % (self._print(e.args[0]), self._print(e.args[1]))

    def _print_Iterate(self, e, exp=None):
        f, p, x = e.args
        return r"{%s}^{(%s)}\left(%s\right)" % (self._print(f), self._print(p), self._print(x))

    def _print_Binders(self, e, exp=None):
        return ", ".join(self._print(a) for a in e.args)

    def _print_Quantifier(self, e, exp=None):
        op, binders, body = e.args
        return r"%s %s :\; %s" % (self._op(op), self._print(binders), self._print(body))

    def _print_Reduce(self, e, exp=None):
        name, binders, body = e.args
        big = {"sum": r"\sum", "min": r"\min", "max": r"\max"}.get(name.name, self._name(name.name))
        return r"%s_{%s} %s" % (big, self._print(binders), self._print(body))

    def _print_Apply(self, e, exp=None):
        return r"%s\left(%s\right)" % (self._print(e.args[0]), ", ".join(self._print(a) for a in e.args[1:]))

    def _print_IntRange(self, e, exp=None):
        return r"\{%s, \ldots, %s\}" % (self._print(e.args[0]), self._print(e.args[1]))

    def _print_Mul(self, expr, exp=None):
        above, below = split_fraction(expr)
        if not below:
            return super()._print_Mul(expr)
        return r"\frac{%s}{%s}" % (self._print(product(above)), self._print(product(below)))

    def _print_Lambda(self, e, exp=None):
        params = ", ".join(self._print(s) for s in e.args[0])
        return r"\left(%s \mapsto %s\right)" % (params, self._print(e.args[1]))


class FormulaMathMLPrinter(MathMLPresentationPrinter):
    """Presentation MathML for the nodes above; sums, products, minima and maxima keep their written order."""

    def __init__(self):
        super().__init__({"order": "none"})
        raw_text_node = self.dom.createTextNode         # sympy's: writes its data unescaped

        def escaped_text_node(data: str):
            if _ENTITY.fullmatch(data):                 # sympy writes some symbols as one entity
                data = html.unescape(data)
            return raw_text_node(xml_escape(data))

        self.dom.createTextNode = escaped_text_node

    # -- small builders
    def _el(self, tag: str, *children, text: str | None = None):
        el = self.dom.createElement(tag)
        if text is not None:
            el.appendChild(self.dom.createTextNode(text))
        for child in children:
            el.appendChild(child)
        return el

    def _mo(self, text: str):
        return self._el("mo", text=text)

    def _row(self, *children):
        return self._el("mrow", *children)

    def _parens(self, inner, left: str = "(", right: str = ")"):
        return self._row(self._mo(left), inner, self._mo(right))

    def _joined(self, items, sep: str):
        row = self._row()
        for i, item in enumerate(items):
            if i:
                row.appendChild(self._mo(sep))
            row.appendChild(self._print(item))
        return row

    def _op(self, op: Op):
        return self._mo(OPERATORS[op.name][1])

    # -- the nodes of this module
    def _print_TextAtom(self, e):
        return self._el("mtext", text=e.name)

    def _print_Op(self, e):
        return self._op(e)

    def _print_Paren(self, e):
        return self._parens(self._print(e.args[0]))

    _print_BoolParen = _print_Paren

    def _print_Infix(self, e):
        return self._joined(e.args[1:], OPERATORS[e.args[0].name][1])

    _print_BoolInfix = _print_Infix

    def _print_Prefix(self, e):
        return self._row(self._op(e.args[0]), self._print(e.args[1]))

    _print_BoolPrefix = _print_Prefix

    def _print_Chain(self, e):
        return self._row(*[self._op(a) if isinstance(a, Op) else self._print(a) for a in e.args])

    def _name(self, name: str):
        base, sub = _split_name(name)
        mi = self._el("mi", text=base)
        if len(base) > 1:
            mi.setAttribute("mathvariant", "normal")
        return self._el("msub", mi, self._el("mn", text=sub)) if sub else mi

    def _call(self, head, args):
        return self._row(head, self._parens(self._joined(args, ",")))

    def _print_Call(self, e):
        return self._call(self._name(e.args[0].name), e.args[1:])

    def _print_Function(self, e):
        return self._call(self._name(type(e).__name__), e.args)

    def _print_Grundy(self, e):
        g = self._el("mi", text="\U0001d4a2")            # MATHEMATICAL SCRIPT CAPITAL G
        return self._call(self._el("msub", g, self._print(e.args[0])), e.args[1:])

    def _print_Subscript(self, e):
        return self._el("msub", self._print(e.args[0]), self._print(e.args[1]))

    def _print_SetLiteral(self, e):
        return self._parens(self._joined(e.args, ","), "{", "}")

    def _print_SetBuilder(self, e):
        inner = self._row(self._print(e.args[0]), self._mo(":"), self._print(e.args[1]))
        return self._parens(inner, "{", "}")

    def _print_Iterate(self, e):
        f, p, x = e.args
        power = self._el("msup", self._print(f), self._parens(self._print(p)))
        return self._row(power, self._parens(self._print(x)))

    def _print_Binders(self, e):
        return self._joined(e.args, ",")

    def _print_Quantifier(self, e):
        op, binders, body = e.args
        return self._row(self._op(op), self._print(binders), self._mo(":"), self._print(body))

    def _print_Reduce(self, e):
        name, binders, body = e.args
        big = self._mo("\u2211") if name.name == "sum" else self._name(name.name)
        return self._row(self._el("munder", big, self._print(binders)), self._print(body))

    def _print_Apply(self, e):
        return self._call(self._print(e.args[0]), e.args[1:])

    def _print_IntRange(self, e):
        inner = self._row(self._print(e.args[0]), self._mo(","), self._mo("\u2026"), self._mo(","),
                          self._print(e.args[1]))
        return self._parens(inner, "{", "}")

    # -- sympy classes whose stock presentation is wrong or reorders the formula
    def _print_Mul(self, expr):
        args, below = split_fraction(expr)
        if below:
            return self._el("mfrac", self._print(product(args)), self._print(product(below)))
        row = self._row()
        if args and args[0] == S.NegativeOne:
            row.appendChild(self._mo(MINUS))
            args = args[1:]
        for i, arg in enumerate(args):
            if i:
                both_numbers = args[i - 1].is_Number and arg.is_Number
                row.appendChild(self._mo("\u00b7" if both_numbers else "\u2062"))
            row.appendChild(self.parenthesize(arg, PRECEDENCE["Mul"], strict=True))
        return row

    def _print_Add(self, expr, order=None):
        row = self._row()
        for i, arg in enumerate(expr.args):
            negative = isinstance(arg, Mul) and arg.args and arg.args[0] == S.NegativeOne
            if negative:
                row.appendChild(self._mo(MINUS))
                rest = arg.args[1:]
                arg = rest[0] if len(rest) == 1 else Mul(*rest, evaluate=False)
                row.appendChild(self.parenthesize(arg, PRECEDENCE["Mul"], strict=True))
                continue
            if arg.is_Number and arg.is_negative and i:
                row.appendChild(self._mo(MINUS))
                row.appendChild(self._print(-arg))
                continue
            if i:
                row.appendChild(self._mo("+"))
            row.appendChild(self._print(arg))
        return row

    def _print_Mod(self, e):
        return self._row(self.parenthesize(e.args[0], PRECEDENCE["Mul"], strict=True), self._mo("mod"),
                         self.parenthesize(e.args[1], PRECEDENCE["Mul"], strict=True))

    def _print_Lambda(self, e):
        params = e.args[0]
        head = self._print(params[0]) if len(params) == 1 else self._parens(self._joined(params, ","))
        return self._parens(self._row(head, self._mo("\u21a6"), self._print(e.args[1])))

    def _print_Piecewise(self, e):
        table = self._el("mtable")
        for value, cond in e.args:
            when = self._el("mtext", text="otherwise") if cond == S.true else self._row(
                self._el("mtext", text="if\u00a0"), self._print(cond))
            table.appendChild(self._el("mtr", self._el("mtd", self._print(value)), self._el("mtd", when)))
        return self._row(self._mo("{"), table)

    def _print_Sum(self, e):
        var, low, high = e.limits[0]
        under = self._row(self._print(var), self._mo("="), self._print(low))
        sigma = self._el("munderover", self._mo("\u2211"), under, self._print(high))
        return self._row(sigma, self.parenthesize(e.function, PRECEDENCE["Mul"], strict=True))

    def _print_BooleanTrue(self, e):
        return self._el("mtext", text="true")

    def _print_BooleanFalse(self, e):
        return self._el("mtext", text="false")


def latex(expr) -> str:
    r"""LaTeX of a formula tree.

    >>> from sympy import Symbol, floor
    >>> latex(Call(TextAtom("v2"), Symbol("n")))
    'v_{2}\\left(n\\right)'
    """
    return FormulaLatexPrinter().doprint(expr)


def mathml(expr) -> str:
    """Presentation MathML (the content of a ``<math>`` element) of a formula tree.

    >>> from sympy import Symbol
    >>> mathml(Chain(Symbol("a"), Op("<"), Symbol("b")))
    '<mrow><mi>a</mi><mo>&lt;</mo><mi>b</mi></mrow>'
    >>> mathml(TextAtom("<b>&"))
    '<mtext>&lt;b&gt;&amp;</mtext>'
    """
    return FormulaMathMLPrinter().doprint(expr)
