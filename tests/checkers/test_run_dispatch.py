"""The one dispatcher of the methods (checkers.run): method x plan type -> routes or the reason it does not apply;
no method answers None; what is left out is one rule, kept as data with the result."""
from __future__ import annotations

import ast
import inspect
import pathlib

import checkers.heaps.reduction as heaps
import checkers.heaps.misere_proof as misere_proof
import checkers.heaps.periodicity as periodicity
import checkers.run as run
from checkers.context import CheckContext
from checkers.options import RunOptions
from checkers.prove.finite import covers_domain
from checkers.window.exhaustive import check_exhaustive
from checkers.run import HANDLERS, LOOPY, METHODS, Earlier, Route, route, run_claim
from nimjos.spec.loader import load_spec
from nimjos.verdict import LeftOut, Verdict
from nimjos.words import Method

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEAPS = load_spec(ROOT / "examples" / "heap_games.toml")


def test_every_entry_is_routes_or_a_reason_and_the_last_route_takes_every_claim():
    for method, table in [*HANDLERS.items(), *((m, {None: e}) for m, e in LOOPY.items())]:
        assert isinstance(method, Method)
        for kind, entry in table.items():
            if isinstance(entry, str):
                assert entry, (method, kind)
                continue
            assert entry and all(isinstance(r, Route) for r in entry), (method, kind)
            # a claim no earlier route takes reaches a handler that takes every claim: never "no handler"
            assert entry[-1].applies is None, (method, kind)


def test_the_route_of_a_claim_over_heaps_a_periodic_claim_and_a_misere_claim():
    assert route(Method.PROVE, HEAPS.claim("bouton").plan()).handler is run._heap_prove
    assert route(Method.SAMPLE, HEAPS.claim("bouton").plan()).handler is run._heap_sample
    assert route(Method.SAMPLE, HEAPS.claim("kayles-period-12").plan()).handler is run._periodic_sample
    assert route(Method.PROVE, HEAPS.claim("kayles-period-12").plan()).handler is run._periodic_prove
    assert route(Method.PROVE, HEAPS.claim("nim-one-heap").plan()).handler is run._prove
    misere = load_spec(ROOT / "examples" / "misere" / "kayles.toml")
    assert route(Method.PROVE, misere.claim("kayles-rows-every-n").plan()).handler is run._misere


def _returns(fn) -> str:
    return ast.unparse(ast.parse(inspect.getsource(fn).lstrip()).body[0].returns)   # type: ignore[attr-defined]


def test_no_method_of_the_dispatcher_is_typed_to_answer_none():
    handlers = {r.handler for table in (*HANDLERS.values(), LOOPY) for entry in table.values()
                if not isinstance(entry, str) for r in entry}
    methods = [heaps.heap_sample, heaps.heap_prove, misere_proof.misere_prove, periodicity.periodic_verdict,
               periodicity.periodic_sample, periodicity.periodic_prove, periodicity.heap_grundy_verdict]
    assert len(handlers) == 9
    for fn in [*handlers, *methods, *METHODS.values()]:
        assert "Verdict" in _returns(fn) and "None" not in _returns(fn), fn.__qualname__


def test_the_skip_of_the_claim_is_read_by_the_dispatcher_before_a_heap_method(write_spec):
    text = (ROOT / "examples" / "heap_games.toml").read_text()
    skipped = text.replace('prove = { using = ["nim-one-heap"] }', 'sample = { skip = "the paper samples it" }\n'
                                                                  'prove = { skip = "the paper proves it" }', 1)
    claim = load_spec(write_spec(skipped, "heap_games.toml")).claim("bouton")
    for method, why in ((Method.SAMPLE, "the paper samples it"), (Method.PROVE, "the paper proves it")):
        v = METHODS[method](claim, RunOptions(), Earlier(), CheckContext.for_claim())
        assert isinstance(v, Verdict) and (v.verdict, v.applicable, v.reason) == ("inconclusive", False, why)


def test_what_is_left_out_is_kept_with_the_result_and_never_listed(write_spec):
    spec = load_spec(write_spec('[source]\nid = "s"\n[[claim]]\nid = "wrong"\nfor_all = "0 <= x <= 9"\n'
                                'holds = "x < 5"\n'))
    result = run_claim(spec.claim("wrong"), RunOptions(repair=False))
    assert [v.method for v in result.verdicts] == ["exhaustive"]
    assert {(lo.method, lo.reason) for lo in result.left_out} == {
        (Method.PROVE, "prove not run: the window refutes the claim"),
        (Method.SAMPLE, "sample not run: the window refutes the claim"),
        (Method.PERIODICITY, "periodicity not run: the window refutes the claim")}
    kayles = run_claim(HEAPS.claim("bouton"), RunOptions(methods=("exhaustive", "periodicity")))
    assert [v.method for v in kayles.verdicts] == ["exhaustive"]
    assert [lo.reason for lo in kayles.left_out] == ["the periodicity method has no handler for a p_positions claim"]
    assert all(isinstance(lo, LeftOut) for lo in kayles.left_out)


def test_a_finite_domain_the_window_found_ill_defined_everywhere_it_looked_is_decided_by_the_window(write_spec):
    # v2(0) is undefined: the window evaluates all 64 instances of the finite domain, so no method can find a
    # refutation it missed, and the prover's Z3 budget would be spent for nothing (tests/hostile/cases/v2_zero.toml)
    spec = load_spec(write_spec('[source]\nid = "s"\n[game.nim2]\nposition = ["x", "y"]\n'
                                'moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, '
                                '{ to = "(x, y - t)", where = "1 <= t <= y" } ]\n'
                                '[[claim]]\nid = "finite"\ngame = "nim2"\nfor_all = "0 <= x <= 7 and 0 <= y <= 7"\n'
                                'grundy = "xor(x, y) + v2(x + y) - v2(x + y)"\n'
                                '[[claim]]\nid = "infinite"\nfor_all = "0 <= x"\nwindow = "x <= 9"\n'
                                'holds = "v2(x) >= 0 and x < 12"\n'))
    finite = run_claim(spec.claim("finite"), RunOptions(repair=False))
    assert [v.method for v in finite.verdicts] == ["exhaustive"]
    assert finite.final.verdict == "ill-defined" and finite.final.undefined[0].bindings == {"x": 0, "y": 0}
    assert {lo.method for lo in finite.left_out} >= {Method.PROVE, Method.SAMPLE}
    assert all("evaluated every instance of its finite domain" in lo.reason for lo in finite.left_out
               if lo.method in (Method.PROVE, Method.SAMPLE))
    # on an infinite domain the window's ill-defined instance does not decide: a failure beyond it outranks it
    infinite = spec.claim("infinite")
    window = check_exhaustive(infinite, "default", 10)
    assert window.verdict == "ill-defined" and window.undefined[0].bindings == {"x": 0}
    assert not covers_domain(infinite, RunOptions(), window)
