"""The Moore's Nim search of tests/test_sample_honest.py run twice more, each time with a fresh example database:
the refutation comes from the search in every run, not from one seed or a stored example (a CPU hog, so slow)."""
from __future__ import annotations

import pytest

from test_sample_honest import test_moore_nim_with_eight_bits_is_refuted_in_every_run as moore_refuted


@pytest.mark.parametrize("attempt", [1, 2])
def test_moore_nim_is_refuted_again_with_a_fresh_database(write_spec, tmp_path, attempt):
    moore_refuted(write_spec, tmp_path, attempt)
