"""Claim kinds are a closed vocabulary (nimjos.words.Kind): the loader validates a claim's kind into it, its word
is the field's name, so the JSON output and the store keep their text, and a claim with no kind (or two) is
refused with its file, line and field, exit 2."""
from __future__ import annotations

import json
import pathlib

from nimjos.spec.loader import load_spec
from nimjos.spec.plan import KIND_PLANS
from nimjos.spec.schema import CLAIM_FIELDS, KIND_FIELDS
from nimjos.words import Kind

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_every_kind_is_a_claim_field_with_a_plan():
    assert tuple(str(k) for k in KIND_FIELDS) == tuple(k.value for k in Kind)
    assert set(KIND_PLANS) == set(Kind) and all(k in CLAIM_FIELDS for k in Kind)


def test_the_loader_validates_kinds_into_the_vocabulary():
    spec = load_spec(ROOT / "examples" / "heap_games.toml")
    assert {type(c.kind) for c in spec.claims} == {Kind}
    assert spec.claim("bouton").kind is Kind.P_POSITIONS and spec.claim("kayles-period-12").kind is Kind.PERIODIC


def test_the_json_output_keeps_the_kind_text(cli):
    out = cli("check", "tests/data/tiny.toml", "--json", "--no-store", "--method", "exhaustive")
    assert out.returncode == 0, out.stderr
    claims = json.loads(out.stdout)["claims"]
    assert claims and claims[0]["kind"] == "grundy" and type(claims[0]["kind"]) is str


def test_a_claim_without_a_kind_is_refused_with_its_place(cli, write_spec):
    path = write_spec('[source]\nid = "s"\n\n[[claim]]\nid = "c"\nfor_all = "0 <= x <= 3"\n')
    out = cli("check", str(path), "--no-store")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"{path}:4: claim 'c': a claim needs exactly one of grundy, p_positions, holds, values, level_set, periodic, stair, " \
           "grundy_at_most, draws" in out.stderr


def test_a_claim_with_two_kinds_names_them(cli, write_spec):
    path = write_spec('[source]\nid = "s"\n\n[[claim]]\nid = "c"\nfor_all = "0 <= x <= 3"\nholds = "x >= 0"\n'
                      'grundy = "x"\n')
    out = cli("check", str(path), "--no-store")
    assert out.returncode == 2 and "; it has grundy, holds" in out.stderr, out.stderr
