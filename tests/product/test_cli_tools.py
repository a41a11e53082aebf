"""The command-line tools: nimjos grundy and nimjos josephus."""
from __future__ import annotations

import json
import pathlib

import numpy as np

import nimjos.josephus.algorithms as josephus
from nimjos.app.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tiny.toml"
CONTRACT = ROOT / "tests" / "data" / "contract.toml"


def run(capsys, *argv):
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_josephus_survivor_of_a_huge_n(capsys):
    status, out, _ = run(capsys, "josephus", "survivor", "--k", "2", "--n", "10**30")
    assert status == 0 and int(out) == 2 * (10**30 - 2**99) + 1


def test_josephus_table_out(capsys, tmp_path):
    path = tmp_path / "t.npy"
    status, out, _ = run(capsys, "josephus", "table", "--k", "3", "--n", "1000", "--out", str(path))
    table = np.load(path)
    assert status == 0 and table.shape == (1001,) and table[0] == 0
    assert table[41] == 31 and table.tolist() == josephus.survivor_table(1000, 3).tolist()


def test_josephus_order_small_is_printed(capsys):
    status, out, _ = run(capsys, "josephus", "order", "--k", "3", "--n", "7")
    assert status == 0 and out.splitlines()[-1] == "3 6 2 7 5 1 4"


def test_josephus_json(capsys):
    status, out, _ = run(capsys, "josephus", "order", "--k", "2", "--n", "5", "--json")
    assert json.loads(out)["values"] == [2, 4, 1, 5, 3]


def test_josephus_bad_input_is_one_line(capsys):
    status, _, err = run(capsys, "josephus", "survivor", "--k", "0", "--n", "5")
    assert status == 2 and err.count("\n") == 1 and "--k" in err


def test_grundy_small_window_is_printed(capsys):
    status, out, _ = run(capsys, "grundy", f"{TINY}::nim1", "--window", "0 <= x <= 5")
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.startswith("  ")}
    assert status == 0 and rows["x"] == rows["G"] == ["0", "1", "2", "3", "4", "5"]   # indices above the values


def test_grundy_out_and_param(capsys, tmp_path):
    path = tmp_path / "g.npy"
    status, out, _ = run(capsys, "grundy", f"{CONTRACT}::maxnim", "--param", "k=2", "--window", "10 <= x <= 30000",
                         "--out", str(path))
    values = np.load(path)
    assert status == 0 and values.shape == (29991,) and "fast engine" in out
    # index i holds G(10 + i); the reference engine on a fresh instance agrees on a stretch
    from nimjos.games.engine import ReferenceEngine
    from nimjos.spec.loader import load_spec
    game = load_spec(CONTRACT).games["maxnim"](2)
    engine = ReferenceEngine()
    engine.use_fast = False
    engine.solve(game, list(range(10, 400)))
    assert values[:390].tolist() == [game.lookup(x) for x in range(10, 400)]


def test_grundy_2d_json(capsys):
    status, out, _ = run(capsys, "grundy", f"{CONTRACT}::wythoff", "--window", "0 <= x < 4 and 0 <= y < 6", "--json")
    data = json.loads(out)
    assert data["values"][1] == [1, 2, 0, 4, 5, 3] and data["shape"] == [4, 6]


def test_grundy_window_need_not_be_a_box_and_marks_what_it_leaves_out(capsys):
    """Issue 28 lifted the refusal of windows that are not boxes: a cell the window leaves out holds -1."""
    status, out, _ = run(capsys, "grundy", f"{TINY}::nim1", "--window", "0 <= x <= 5 and x != 3", "--json")
    assert status == 0 and json.loads(out)["values"] == [0, 1, 2, -1, 4, 5]


def test_grundy_missing_param(capsys):
    status, _, err = run(capsys, "grundy", f"{CONTRACT}::maxnim", "--window", "0 <= x <= 5")
    assert status == 2 and "--param k" in err


def test_josephus_long_table_summary_is_the_whole_table(capsys, tmp_path):
    # without --out the long table is made a piece at a time: its summary must be the whole table's
    from nimjos.josephus.checksum import table_checksum
    path = tmp_path / "t.npy"
    status, saved, _ = run(capsys, "josephus", "table", "--k", "5", "--n", "1000001", "--out", str(path))
    status2, streamed, _ = run(capsys, "josephus", "table", "--k", "5", "--n", "1000001")
    table = np.load(path)
    first = " ".join(map(str, table[:10].tolist())) + " ... " + " ".join(map(str, table[-5:].tolist()))
    assert status == status2 == 0 and saved.splitlines()[0] == streamed.strip()
    assert streamed.strip().endswith(f": {first} (checksum {table_checksum(table)})")
    status, out, _ = run(capsys, "josephus", "table", "--k", "5", "--n", "1000001", "--json")
    reply = json.loads(out)
    assert reply["checksum"] == table_checksum(table) and reply["length"] == 1000002 and reply["values"] is None
