"""Messages beside a verdict that must not mislead: a closed statement's counterexample, the report's expectation
column, the order an expected counterexample is written in, what ``explain`` says at a family member and on a misère
game, and the observations of periodicity printed beside a window."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

HEAD = '[source]\nid = "m"\n\n'


def _write(tmp_path: Path, text: str, name: str = "m.toml") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + text)
    return path


# ----------------------------------------------------------------------------- a closed statement

CLOSED = '[[claim]]\nid = "c"\nholds = "2 ** 5 - 1 == 30"\n'


def test_a_closed_statement_s_counterexample_names_no_empty_place(tmp_path, cli):
    path = _write(tmp_path, CLOSED)
    r = cli("check", path, "--no-store")
    assert r.returncode == 1
    assert "false as a closed statement (no variables): left side 31, right side 30" in r.stdout
    assert "counterexample: :" not in r.stdout
    assert f"re-run: nimjos check {path} --claim c\n" in r.stdout and "--at" not in r.stdout
    r = cli("check", path, "--no-store", "--json")
    assert json.loads(r.stdout)["claims"][0]["rerun"] == f"nimjos check {path} --claim c"
    r = cli("explain", f"{path}::c")
    assert r.stdout.splitlines()[0] == "claim c: refuted; false as a closed statement (no variables)"


def test_a_closed_statement_in_the_report_and_the_notebook_api(tmp_path, cli):
    from nimjos.api.claims import check
    path = _write(tmp_path, CLOSED)
    assert check(path)[0].counterexample() == "the closed statement (no variables): left side 31, right side 30"
    store = tmp_path / "r.sqlite"
    assert cli("check", path, "--store", store).returncode == 1
    assert cli("report", "--store", store, "--out", tmp_path / "out", "--format", "md").returncode == 0
    index = (tmp_path / "out" / "index.md").read_text()
    assert "`the closed statement (no variables)`" in index


# ----------------------------------------------------------------------------- the order of expect_counterexample

NIM2 = ('[game.nim2]\nposition = ["x", "y"]\n'
        'moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" } ]\n\n')
PARITY = ('[[claim]]\nid = "parity"\ngame = "nim2"\nfor_all = "0 <= y and 0 <= x"\nwindow = "y <= 6 and x <= 6"\n'
          'p_positions = "(x + y) % 2 == 0"\nexpect = "refuted"\nexpect_counterexample = "{}"\n')


@pytest.mark.parametrize("written", ["(2, 0)", "(0, 2)"])
def test_an_expected_counterexample_in_the_bound_or_the_position_order_agrees(tmp_path, cli, written):
    """for_all binds y before x: the smallest counterexample is y=0, x=2, the position (x, y) = (2, 0)."""
    r = cli("check", _write(tmp_path, NIM2 + PARITY.format(written)), "--no-store", "--method", "exhaustive")
    assert "smallest counterexample: y=0, x=2" in r.stdout
    assert r.returncode == 0, r.stdout


def test_a_wrong_expected_counterexample_says_which_order_it_was_read_in(tmp_path, cli):
    r = cli("check", _write(tmp_path, NIM2 + PARITY.format("(1, 1)")), "--no-store", "--method", "exhaustive")
    assert r.returncode == 1
    assert ("DISAGREES: expected smallest counterexample (1, 1), got (y, x) = (0, 2), in the position order "
            "(x, y) = (2, 0)") in r.stdout


# ----------------------------------------------------------------------------- the report's expectation column

def test_the_report_says_which_counterexample_was_expected_not_expected_refuted(tmp_path, cli):
    """Only the expected counterexample differs: the verdict is the expected word, and the report says what the CLI
    says, never "expected refuted" beside `refuted`."""
    path = _write(tmp_path, NIM2 + PARITY.format("(1, 1)"))
    store = tmp_path / "r.sqlite"
    assert cli("check", path, "--store", store, "--method", "exhaustive").returncode == 1
    out = tmp_path / "out"
    assert cli("report", "--store", store, "--out", out).returncode == 0
    why = "expected smallest counterexample (1, 1), got (y, x) = (0, 2), in the position order (x, y) = (2, 0)"
    index, html = (out / "index.md").read_text(), (out / "index.html").read_text()
    assert f"**{why}**" in index and "expected refuted" not in index
    assert why in html and "expected refuted" not in html
    pages = list((out / "claims").glob("*.md"))
    assert pages and all("expected refuted" not in p.read_text() for p in pages)
    assert any(f"not as expected ({why})" in p.read_text() for p in pages)


# ----------------------------------------------------------------------------- explain

FAMILIES = ('[[claim]]\nid = "fam"\ngame = "nim2"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 10 and y <= 10"\n'
            'p_positions = [ { point = "(j, j)", where = "j >= 0" }, { point = "(j, j + 1)", where = "j >= 1" } ]\n'
            'expect = "refuted"\n')
SUB123M = ('[game.sub123m]\nposition = ["n"]\nplay = "misere"\nmoves = [ { to = "n - t", where = "1 <= t <= 3 and t <= n" } ]\n\n'
           '[[claim]]\nid = "mis"\ngame = "sub123m"\nfor_all = "0 <= n"\nwindow = "n <= 40"\np_positions = "n % 4 == 2"\n'
           'expect = "refuted"\n')


@pytest.mark.parametrize("at, says", [
    (None, "the claim says: P-position: family 2 {(j, j + 1): j >= 1} at j = 1"),   # the smallest counterexample
    ("(3, 3)", "the claim says: P-position: family 1 {(j, j): j >= 0} at j = 3"),
    ("(3, 5)", "the claim says: not a P-position: no family gives (3, 5)"),
])
def test_explain_names_the_family_member_that_gives_the_position(tmp_path, cli, at, says):
    path = _write(tmp_path, NIM2 + FAMILIES)
    r = cli("explain", f"{path}::fam", *(["--at", at] if at else []))
    assert r.returncode == 0 and says in r.stdout and "see the families" not in r.stdout


def test_explain_on_a_misere_game_names_misere_grundy_values(tmp_path, cli):
    path = _write(tmp_path, SUB123M)
    out = cli("explain", f"{path}::mis", "--depth", "1").stdout.splitlines()
    assert out[1:5] == ["position 1 in sub123m (misère play: the last player to move loses)", "  option  misère Grundy",
                        "  0       1", "mex of the options' misère Grundy values = 0: a P-position in misère play"]
    assert "  -> 0  misère G = 1" in out
    out = cli("explain", f"{path}::mis", "--at", "0").stdout
    assert "misère Grundy value 1: a terminal position is an N-position in misère play" in out
    assert "option  Grundy" not in out and "= G(" not in out


# ----------------------------------------------------------------------------- observations of periodicity

def test_a_pattern_of_the_last_few_values_is_not_printed_as_a_fact_about_the_sequence():
    import numpy as np
    from nimjos.api.tables import _periodicity
    from nimjos.games.periodicity import observe
    head = [n * n for n in range(2040)]                                          # no period at all ...
    seq = np.array(head + [5000, 5001, 5002, 5003, 5004, 5005, 5006, 5007])     # ... then the last 8 values rise
    assert "from 2040" not in _periodicity(seq, 0)
    assert _periodicity(seq, 0) == "no period within the window (0..2047) with several periods of evidence"
    assert observe(seq) is None
    # the same pattern with several periods and as many values as its preperiod is an observation
    long = np.array(head + list(range(5000, 5000 + 2100)))
    assert _periodicity(long, 0).startswith("arithmetic periodic with period 1 from 2040, saltus 1")


def test_a_misere_table_shows_the_pattern_of_its_p_positions_never_a_normal_play_pattern(cli):
    r = cli("grundy", 'misere(octal("0.77"))', "--window", "0 <= n <= 30")
    assert r.returncode == 0
    assert "saltus" not in r.stdout and "arithmetic periodic" not in r.stdout
    assert ("no pattern of the P-positions (misère play) within the window (0..30) with several periods of evidence"
            in r.stdout)
    r = cli("grundy", 'misere(subtraction({1, 2, 3}))', "--window", "0 <= n <= 30")
    assert "the P-positions (misère play) from n = 0 are the n with n % 4 == 1 (exact through 30)" in r.stdout
    assert "periodic with period" not in r.stdout


def test_a_misere_claim_s_observation_is_about_its_p_positions(tmp_path, cli):
    r = cli("check", _write(tmp_path, SUB123M), "--no-store", "--method", "exhaustive")
    assert "the Grundy sequence of sub123m" not in r.stdout
    assert ("observation: the P-positions (misère play) of sub123m from n = 0 are the n with n % 4 == 1 (exact "
            "through 40)") in r.stdout
