"""The sampler's honesty tests that cost the inner loop most (CPU hogs, so slow; the specs and the runner are those
of tests/checkers/test_sample_honest.py).

* Moore's Nim_2 with an 8-bit P-set is refuted by the search beyond the window in every run, each with a fresh
  example database: the refutation comes from the search, not from one seed or a stored example.
* Instances drawn on the domain's edge do not count towards `sampled` (the sampler draws until it gives up).
"""
from __future__ import annotations

import pytest

from nimjos.spec.loader import load_spec
from tests.checkers.test_sample_honest import MOORE, SPEC, run


@pytest.mark.parametrize("attempt", [0, 1, 2])
def test_moore_nim_with_eight_bits_is_refuted_in_every_run(write_spec, tmp_path, attempt):
    # a fresh example database each time: the refutation comes from the search, not from a stored example
    spec = load_spec(write_spec(MOORE))
    v = run(spec.claim("moore-8-bits"), store=str(tmp_path / f"db{attempt}" / "results.sqlite"))
    assert v.verdict == "refuted", v.scope
    cx = v.counterexamples[0].bindings
    assert max(cx.values()) >= 256
    assert all(sum(h >> i & 1 for h in cx.values()) % 3 == 0 for i in range(8))   # the claim puts it in P
    assert v.beyond is not None and v.largest is not None


def test_instances_on_the_domain_edge_do_not_count(write_spec):
    v = run(load_spec(write_spec(SPEC)).claim("terminal-only"))
    assert v.verdict == "inconclusive"
    assert v.beyond is not None and v.beyond > 0      # drawn beyond the window, but every one at x = 0
    assert "on the domain's edge" in v.scope
    assert any("at least 20 needed" in n for n in v.notes)
