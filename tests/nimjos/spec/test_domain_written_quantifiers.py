"""Quantifiers as written (issue 25): ``for_all`` is the claim's domain as printed, ``window`` only how much of it
the exhaustive method enumerates. Nothing is inferred from the width of a range.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from checkers.run import RunOptions, run_claim
from nimjos.lang.errors import SpecError
from nimjos.spec.loader import load_spec

HEAD = '[source]\nid = "q"\n'


def verdict(write_spec, body: str, claim: str = "c") -> tuple[str, str]:
    spec = load_spec(write_spec(HEAD + body))
    result = run_claim(spec.claim(claim), RunOptions(repair=False))
    return result.final.verdict, " | ".join(f"{m.method}: {m.verdict}: {m.scope}" for m in result.verdicts)


@pytest.mark.parametrize("top", [9, 10, 11, 30])
def test_the_width_of_a_range_never_changes_the_theorem(write_spec, top, walnut):
    # `k - 2 <= top - 2` is true exactly on 2 <= k <= top: a statement about that range, whatever its width
    v, scopes = verdict(write_spec, f'[[claim]]\nid = "c"\nfor_all = "2 <= k <= {top}"\nholds = "k - 2 <= {top - 2}"\n')
    assert v == "proved", scopes
    assert f"k = {top + 1}" not in scopes


def test_the_same_statement_over_an_infinite_domain_is_refuted_past_the_range(write_spec, walnut):
    v, scopes = verdict(write_spec, '[[claim]]\nid = "c"\nfor_all = "k >= 2"\nwindow = "k <= 10"\nholds = "k - 2 <= 8"\n')
    assert v == "refuted", scopes


def test_a_finite_table_below_100_is_never_judged_at_100(write_spec):
    # take-a-square: the list of P-positions below 100 is right below 100 and says nothing at 109 (the next one)
    body = '''[game.squares]
position = ["n"]
moves = [ { to = "n - s * s", where = "1 <= s <= isqrt(n)" } ]

[[claim]]
id = "c"
game = "squares"
for_all = "0 <= n <= 99"
p_positions = "n in {0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72, 85, 95}"
'''
    v, scopes = verdict(write_spec, body)
    assert v in ("proved", "checked"), scopes
    assert "100" not in scopes.replace("99", "").replace("100 instances", "")   # 0..99 is 100 instances


def test_an_infinite_domain_without_a_window_is_a_spec_error_with_the_window_to_add(write_spec):
    path = write_spec(HEAD + '[[claim]]\nid = "c"\nfor_all = "x >= 0 and y >= x"\nholds = "y >= 0"\n')
    with pytest.raises(SpecError) as err:
        load_spec(path)
    text = str(err.value)
    assert "field 'for_all'" in text and "infinite domain" in text
    assert 'window = "x <= 100 and y <= 100"' in text


def test_the_cli_refuses_it_with_status_2_and_no_traceback(write_spec, cli):
    path = write_spec(HEAD + '[[claim]]\nid = "c"\nfor_all = "x >= 0"\nholds = "x >= 0"\n')
    run = cli("check", "--no-store", str(path))
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and "window" in run.stderr


@pytest.mark.parametrize("field,fix", [
    ('domain = "x >= 1"\nfor_all = "1 <= x <= 9"', 'for_all = \\"x >= 1\\" and window = \\"1 <= x <= 9\\"'),
    ('for_all = "x >= 1"\nwindow = "x <= 9"\ndeep = { for_all = "1 <= x <= 90" }', 'deep = { window = \\"1 <= x <= 90\\" }'),
])
def test_a_spec_in_the_old_format_is_refused_with_its_rewrite(write_spec, field, fix):
    with pytest.raises(SpecError) as err:
        load_spec(write_spec(HEAD + f'[[claim]]\nid = "c"\n{field}\nholds = "x >= 1"\n'))
    assert fix.replace("\\", "") in str(err.value).replace("\\", "")


def test_the_window_is_enumerated_inside_the_domain_and_the_profile_only_widens_it(write_spec):
    spec = load_spec(write_spec(HEAD + '[[claim]]\nid = "c"\nfor_all = "x >= 3 and x % 2 == 1"\nwindow = "x <= 20"\n'
                                       'deep = { window = "x <= 40" }\nholds = "x >= 3"\n'))
    c = spec.claim("c")
    default = [env["x"] for env in c.plan().window.bindings({})]
    deep = [env["x"] for env in c.plan("deep").window.bindings({})]
    assert default == list(range(3, 21, 2)) and deep == list(range(3, 41, 2))
    assert c.plan().domain.text == c.plan("deep").domain.text == "x >= 3 and x % 2 == 1"


def test_a_window_may_not_bind_a_name_the_domain_does_not_state(write_spec):
    with pytest.raises(SpecError) as err:
        load_spec(write_spec(HEAD + '[[claim]]\nid = "c"\nfor_all = "x >= 0"\nwindow = "x <= 9 and 0 <= y <= 3"\n'
                                    'holds = "x + y >= 0"\n'))
    assert "field 'window'" in str(err.value) and "'y'" in str(err.value)


def test_the_migration_keeps_what_the_old_rule_enumerated_and_states_the_domain(write_spec):
    """scripts/migrate_domains.py rewrites a spec of the old format (for_all the window, domain optional) into
    for_all (the domain) and window, the window enumerating what the old one did."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
    import migrate_domains   # noqa: E402  (scripts/migrate_domains.py)
    old = HEAD + ('[[claim]]\nid = "wide"\nfor_all = "1 <= x <= 60 and 2 <= k <= 4"\nholds = "x + k >= 3"\n'
                  '[[claim]]\nid = "stated"\ndomain = "x >= 1"\nfor_all = "1 <= x <= 9"\nholds = "x >= 1"\n'
                  'deep = { for_all = "1 <= x <= 90" }\n')
    new = migrate_domains.migrate_text(old)
    spec = load_spec(write_spec(new))
    wide, stated = spec.claim("wide"), spec.claim("stated")
    assert wide.for_all_text == "1 <= x and 2 <= k <= 4" and wide.get("window") == "x <= 60"
    assert sum(1 for _ in wide.plan().window.bindings({})) == 60 * 3
    assert stated.for_all_text == "x >= 1" and stated.get("window") == "1 <= x <= 9"
    assert stated.get("window", "deep") == "1 <= x <= 90"
    assert migrate_domains.migrate_text(new) == new   # already in the new format: unchanged
