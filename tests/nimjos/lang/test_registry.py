"""The one registry of built-ins (nimjos/lang/registry.py) against every backend's table of forms, both ways: every
registered built-in has a form in the table or a stated reason, the table names nothing unregistered, and a
built-in with a reason has no form. The scalar forms: every name the language knows as a function is registered,
and its function is the one in the module the registry names."""
from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest

from checkers.z3.translate import Z3_FORMS, Builder
from checkers.z3.terms import Untranslatable
from checkers.prove.walnut.arith import WALNUT_FORMS
from checkers.window.vectorised import ARRAY_CALLS
from nimjos.games.fast.translate import FAST_FORMS
from nimjos.lang.builtins import BUILTINS
from nimjos.lang.registry import BACKENDS, LANG, REGISTRY, builtins_of
from nimjos.lang.syntax import parse
from nimjos.lang.vector import VECTOR_FORMS, NotVectorisable, vectorise
from nimjos.spec.names import SPEC_BUILTINS, spec_namespace


def _vector_names() -> set[str]:
    """The built-ins with a vectorised form: nimjos/lang/vector.py's table, and the array functions the caller
    (checkers/window/vectorised.py) gives for the functions of the layers above."""
    by_id = {id(fn): name for name, fn in SPEC_BUILTINS.items()}
    return set(VECTOR_FORMS) | {by_id[i] for i in ARRAY_CALLS if i in by_id}


TABLES = {"vector": _vector_names, "z3": lambda: set(Z3_FORMS), "walnut": lambda: set(WALNUT_FORMS),
          "fast": lambda: set(FAST_FORMS)}


def disagreements(backend: str, names: set[str]) -> list[str]:
    """What is wrong between the registry and a backend's table holding `names` (empty when they agree)."""
    out = [f"{n}: in the {backend} table but not registered" for n in sorted(names - set(REGISTRY))]
    for name, b in REGISTRY.items():
        reason = b.reason(backend)
        if reason is None and name not in names:
            out.append(f"{name}: no {backend} form and no reason")
        if reason is not None and name in names:
            out.append(f"{name}: a {backend} form and a reason ({reason})")
        if reason is not None and not (isinstance(reason, str) and reason.strip()):
            out.append(f"{name}: an empty reason for {backend}")
    return out


def test_every_backend_has_a_table():
    assert set(TABLES) == set(BACKENDS)


@pytest.mark.parametrize("backend", BACKENDS)
def test_backend_table_agrees_with_the_registry(backend):
    assert disagreements(backend, TABLES[backend]()) == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_check_sees_a_wrong_table(backend):
    """The agreement check can fail: a form added for a built-in with a reason, a form dropped, an unknown name."""
    names = TABLES[backend]()
    with_reason = next(n for n, b in REGISTRY.items() if b.reason(backend) is not None)
    with_form = next(iter(sorted(names)))
    assert any(with_reason in d for d in disagreements(backend, names | {with_reason}))
    assert any(with_form in d for d in disagreements(backend, names - {with_form}))
    assert any("nosuch" in d for d in disagreements(backend, names | {"nosuch"}))


def test_every_name_the_language_knows_as_a_function_is_registered():
    assert set(SPEC_BUILTINS) == set(REGISTRY)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_scalar_form_is_in_the_module_the_registry_names(name):
    b = REGISTRY[name]
    assert getattr(importlib.import_module(b.scalar), b.scalar_name) is SPEC_BUILTINS[name]


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_arity_fits_the_scalar_function_s_signature(name):
    """The registry's arity lies within what the scalar function accepts (exactly, when it takes no *args)."""
    params = list(inspect.signature(SPEC_BUILTINS[name]).parameters.values())
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = sum(1 for p in positional if p.default is p.empty)
    most = None if any(p.kind == p.VAR_POSITIONAL for p in params) else len(positional)
    low, high = REGISTRY[name].arity
    assert required <= low and (most is None or (high is not None and high <= most)), (required, most)
    if most is not None and required == most:
        assert (low, high) == (required, most)


@pytest.mark.parametrize("name", sorted(n for n, b in REGISTRY.items() if b.increasing))
def test_a_built_in_declared_increasing_is_nondecreasing(name):
    """The monotonicity analysis takes `increasing` from the registry: the scalar form must bear it out."""
    fn = SPEC_BUILTINS[name]

    def value(n: int) -> int | None:
        try:
            return fn(n)
        except Exception:        # outside its domain (isqrt of a negative number): no value to compare
            return None
    values = [v for v in map(value, range(-40, 400)) if v is not None]
    assert len(values) >= 400 and all(a <= b for a, b in zip(values, values[1:]))


def test_an_undeclared_built_in_is_not_taken_as_increasing():
    from nimjos.lang.monotone import direction   # the analysis, on a call of a built-in the registry leaves out
    assert direction(parse("floor(n)"), "n", spec_namespace()) == "inc"
    assert direction(parse("v2(n)"), "n", spec_namespace()) is None


@pytest.mark.parametrize("name", sorted(n for n, b in REGISTRY.items() if b.returns))
def test_the_declared_type_is_the_resolved_call_s(name):
    from nimjos.lang.ir import Type
    from nimjos.lang.resolve import _RETURNS
    assert _RETURNS[name] is Type(REGISTRY[name].returns)


def test_the_language_layer_builtins_are_the_registry_s():
    assert set(BUILTINS) == set(builtins_of(LANG))


@pytest.mark.parametrize("name", sorted(n for n, b in REGISTRY.items() if b.domains))
def test_grammar_domains_match_the_arity(name):
    low, high = REGISTRY[name].arity
    assert low <= len(REGISTRY[name].domains) <= (high if high is not None else 99)


def test_vectorised_dispatch_reads_the_table(monkeypatch):
    """A built-in taken out of the vectorised table is refused."""
    f = vectorise(parse("v2(x)"), spec_namespace())
    assert f({"x": np.array([4, 6])}).tolist() == [2, 1]
    monkeypatch.delitem(VECTOR_FORMS, "v2")
    with pytest.raises(NotVectorisable, match="v2"):
        f({"x": np.array([4, 6])})


def test_z3_dispatch_reads_the_table(monkeypatch):
    """A built-in taken out of the Z3 table is no longer translated on symbolic arguments."""
    b = Builder(spec_namespace(), mode="bv", bits=8)
    b.term(parse("v2(x)"), {"x": b.var("x")})
    monkeypatch.delitem(Z3_FORMS, "v2")
    with pytest.raises(Untranslatable):
        Builder(spec_namespace(), mode="bv", bits=8).term(parse("v2(x)"), {"x": b.var("x")})


def test_z3_refusal_gives_the_registry_s_reason():
    b = Builder(spec_namespace(), mode="int")
    with pytest.raises(Untranslatable, match=REGISTRY["mex"].z3):
        b.term(parse("mex({x, 1})"), {"x": b.var("x")})
