"""Formulas as mathematics: parsed with ast (never evaluated), printed as LaTeX and safe MathML."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from nimjos.report.formula import MATHML_NS, check_mathml, render_formula

CASES = [
    ("v2((x | y) + 1)", r"v_{2}\left(\left(x \mathbin{\mathrm{OR}} y\right) + 1\right)"),
    ("(x + y) % 2 == 0", r"\left(x + y\right) \bmod 2 = 0"),
    ("n + floor(n / (k - 1)) + 1", r"n + \left\lfloor{\frac{n}{k - 1}}\right\rfloor + 1"),
    ("ceil(x / 2)", r"\left\lceil{\frac{x}{2}}\right\rceil"),
    ("x // 3", r"\left\lfloor{\frac{x}{3}}\right\rfloor"),
    ("isqrt(5*k*k)", r"\left\lfloor{\sqrt{5 k k}}\right\rfloor"),
    ("a - (b + c) - (d - e)", r"a - \left(b + c\right) - \left(d - e\right)"),
    ("2**(n - 1) - 1", r"2^{n - 1} - 1"),
    ("xor(a, b, c) == 0", r"a \oplus b \oplus c = 0"),
    ("0 <= x < y", r"0 \leq x < y"),
    ("x in {2, 3} and not y", r"x \in \left\{2, 3\right\} \wedge \neg y"),
    ("min(x, y) != max(a, 3)", r"\min\left(x, y\right) \neq \max\left(a, 3\right)"),
    ("JJ(k, n, m) == G(maxnim(k), n*k - m)",
     r"\operatorname{JJ}\left(k, n, m\right) = \mathcal{G}_{\text{maxnim(k)}}\left(n k - m\right)"),
    ("G(nim2, (x, y)) == xor(x, y)", r"\mathcal{G}_{\text{nim2}}\left(x, y\right) = x \oplus y"),
    ("survivor(n, k) == n * k - iterate(lambda r: g(k, r), p, 0)",
     r"\operatorname{survivor}\left(n, k\right) = n k - {\left(r \mapsto g\left(k, r\right)\right)}^{(p)}\left(0\right)"),
    ("x if x < y else 0", r"\begin{cases} x & \text{for}\: x < y \\0 & \text{otherwise} \end{cases}"),
    ("all(f(i) <= f(i + 1) for i in range(1, n + 1))",
     r"\forall i \in \{1, \ldots, n\} :\; f\left(i\right) \leq f\left(i + 1\right)"),
    ("sum(popcount(i) for i in range(n))", r"\sum_{i=0}^{n - 1} \operatorname{popcount}\left(i\right)"),
    ("any(0 <= d - k1 <= r for k1 in range(0, r1 + 1) if k1 > 0)",
     r"\exists k_{1} \in \{0, \ldots, r_{1}\}, k_{1} > 0 :\; 0 \leq d - k_{1} \leq r"),
    ("mex({G(g, o) for o in options(g, p)})",
     r"\operatorname{mex}\left(\left\{\mathcal{G}_{\text{g}}\left(o\right) \;:\; o \in "
     r"\operatorname{options}\left(g, p\right)\right\}\right)"),
    ("family((k, 2 * k), k >= 0) | family((2 * k, k), k >= 0)",
     r"\left\{\left( k, \  2 k\right) \;:\; k \geq 0\right\} \cup \left\{\left( 2 k, \  k\right) \;:\; k \geq 0\right\}"),
    ("{(k, 2 * k): k >= 0} | {(2 * k, k): k >= 0}",
     r"\left\{\left( k, \  2 k\right) \;:\; k \geq 0\right\} \cup \left\{\left( 2 k, \  k\right) \;:\; k \geq 0\right\}"),
    ("GS(allbut(T))(n + p)", r"\operatorname{GS}\left(\operatorname{allbut}\left(T\right)\right)\left(n + p\right)"),
    ("t[0] + t[1]", r"{t}_{0} + {t}_{1}"),
]


@pytest.mark.parametrize("text, latex", CASES)
def test_latex(text, latex):
    f = render_formula(text)
    assert f.latex == latex
    assert f.complete
    check_mathml(f.mathml)


def test_mathml_is_presentation_markup_in_the_written_order():
    f = render_formula("JJ(k, n, m) == n*k - m")
    root = ET.fromstring(f.mathml)
    assert root.tag == f"{{{MATHML_NS}}}math"
    text = [el.text for el in root.iter() if el.text and el.tag != f"{{{MATHML_NS}}}annotation"]
    assert text == ["JJ", "(", "k", ",", "n", ",", "m", ")", "=", "n", "\u2062", "k", "\u2212", "m"]
    annotation = root.find(f".//{{{MATHML_NS}}}annotation")
    assert annotation.get("encoding") == "application/x-tex" and annotation.text == f.latex


def test_untranslatable_parts_fall_back_to_their_text():
    f = render_formula("len([x for x in range(3)]) == 3")
    assert not f.complete
    assert r"\text{[x for x in range(3)]}" in f.latex
    g = render_formula("for all (a, b) with k >= 0")           # not Python at all
    assert not g.complete and g.latex == r"\text{for all (a, b) with k >= 0}"
    check_mathml(g.mathml)


def test_text_from_the_spec_is_escaped_everywhere():
    f = render_formula("'<script>alert(1)</script>' == x & y")
    assert "<script" not in f.mathml
    assert "&lt;script&gt;" in f.mathml
    check_mathml(f.mathml)
    h = render_formula("<b>bold</b>")
    assert "<b>" not in h.mathml and not h.complete


def test_formula_text_is_never_evaluated(tmp_path):
    marker = tmp_path / "touched"
    f = render_formula(f"__import__('pathlib').Path({str(marker)!r}).touch()")
    assert not marker.exists()
    check_mathml(f.mathml)


@pytest.mark.parametrize("bad", [
    '<math xmlns="http://www.w3.org/1998/Math/MathML"><mi onclick="x()">x</mi></math>',
    '<math xmlns="http://www.w3.org/1998/Math/MathML"><mtext><img src="x"/></mtext></math>',
    '<math xmlns="http://www.w3.org/1998/Math/MathML"><mi>x</mi>',
])
def test_check_mathml_refuses_anything_else(bad):
    with pytest.raises(ValueError):
        check_mathml(bad)
