"""``nimjos new FILE.toml [--game NAME]``: write a commented skeleton spec that loads and checks.

>>> text = skeleton("my-paper", "turning_stones")
>>> "[game.turning_stones]" in text and "[[claim]]" in text
True
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from nimjos.app.cli import help_of

TEMPLATE = '''# A nimjos spec: one file per source document. Reference: docs/spec-format.md
# Check it with:   nimjos check {path}
# Every claim is written as printed; `expect` says what you believe, and the checker tells you whether it is so.

[source]
id = "{source_id}"
title = "Title of the paper"
authors = ["First Author", "Second Author"]
cite = "Journal, volume (year), pages"
# document = "paper.pdf"     # the file or identifier of the source document

# ------------------------------------------------------------------ the game, declared by its moves
# A position is a tuple of non-negative integers named in `position`. Each move family gives the option
# `to` for every binding of the names in `where` (bounds such as 1 <= t <= x bind t).
[game.{game}]
title = "Subtraction of 1 or 2 tokens (replace with the paper's game)"
position = ["n"]
moves = [
  {{ to = "n - s", where = "s in {{1, 2}} and s <= n" }},
]

# ------------------------------------------------------------------ definitions usable in any expression
[define]
"period3(n)" = "n % 3"

# ------------------------------------------------------------------ claims
[[claim]]
id = "grundy-formula"
ref = "Theorem 1"
text = "G(n) = n mod 3"
game = "{game}"
for_all = "n >= 0"                           # the domain, as printed
window = "n <= 200"                          # how much of it is checked exhaustively
deep = {{ window = "n <= 20000" }}             # nimjos check --profile deep
grundy = "period3(n)"
expect = "holds"

[[claim]]
id = "p-positions"
ref = "Corollary 2"
text = "The P-positions are the multiples of 3."
game = "{game}"
for_all = "n >= 0"
window = "n <= 200"
p_positions = [ {{ point = "3 * j", where = "j >= 0" }} ]   # a union of families, as printed
expect = "holds"

[[claim]]
id = "printed-table"
ref = "Table 1"
game = "{game}"
values = {{ from = 0, grundy = [0, 1, 2, 0, 1, 2, 0] }}
expect = "holds"
'''


def skeleton(source_id: str, game: str, path: str = "FILE.toml") -> str:
    """The skeleton text for a source id and a game name."""
    return TEMPLATE.format(source_id=source_id, game=game, path=path)


def cmd_new(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if path.suffix != ".toml":
        print(f"nimjos: {path}: a spec file name ends in .toml", file=sys.stderr)
        return 2
    if path.exists() and not args.force:
        print(f"nimjos: {path}: already exists (use --force to overwrite)", file=sys.stderr)
        return 2
    game = args.game or "my_game"
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", game):
        print(f"nimjos: --game {game!r}: a game name is letters, digits and underscores", file=sys.stderr)
        return 2
    source_id = re.sub(r"[^A-Za-z0-9_-]+", "-", path.stem).strip("-") or "paper"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(skeleton(source_id, game, str(path)))
    print(f"wrote {path}; check it with: nimjos check {path}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new", help=help_of("new"))
    p.add_argument("file", help="the new spec file (.toml)")
    p.add_argument("--game", help="name of the game to declare")
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.set_defaults(func=cmd_new)
