"""From a game's moves to a checked description of its P-positions or Grundy values, without being given a formula:
:func:`discover`, which ``nimjos discover`` prints and a notebook can call.

GAME is named as ``nimjos grundy`` names it (a game declared in FILE, or a game expression over the built-in
families: ``octal("0.77")``, ``subtraction({1, 2, 3})``); the table comes from :func:`nimjos.api.tables.grundy_table`
(the fast engines), the fitting and checking from the methods' ``describe_game`` (:mod:`checkers.discover.search`).

>>> import pathlib
>>> path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml"
>>> source = game_source(f"{path}::nim1", [])
>>> source.claim_game, source.coords, source.declarations.splitlines()[0]
('nim1', ('x',), '[game.nim1]')
"""
from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from checkers import CLASSES, MISERE_CLASSES, OUTSIDE, Discovery, GameSource, describe_game
from nimjos.api.tables import grundy_table, resolve_game
from nimjos.games.declared import MISERE, names_only
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import SpecError
from nimjos.spec.loader import Spec, load_spec

__all__ = ["discover", "game_source", "table_function", "toml_value", "checked_domain"]


def discover(target: str, params: list[str] | None = None, window: int | None = None, rounds: int = 1,
             domain: str | None = None, out: str | Path | None = None) -> Discovery:
    """A checked description of the game ``target``'s P-positions or Grundy values (``.found``: each with its
    class, verdict, scope and the claim as TOML), fitted on the box up to ``window`` on every coordinate (None: the
    default for the game's number of coordinates) and confirmed beyond it; ``params`` a declared game's
    (``["k=3"]``), ``domain`` the positions described (``"a < b < c"``), ``out`` a spec file to write the claims to.
    Raises ``checkers.DiscoveryBug`` when a claim it wrote does not load (its own fault, never the user's).

    >>> found = discover("subtraction({1, 2})", window=30).found[0]
    >>> found.klass, found.verdict
    ('periodic', 'proved')
    """
    path, sep, _ = target.rpartition("::")
    spec = load_spec(path) if sep else None   # loaded once: the game's declaration and its tables come from it
    source = game_source(target, params or [], domain, spec)
    tried = (MISERE_CLASSES if source.misere else CLASSES).get(len(source.coords))
    if tried is None:
        raise SpecError(f"nimjos discover fits games of 1 to 3 coordinates, not {len(source.coords)}")
    return describe_game(source, table_function(target, params or [], source.coords, source.domain, spec),
                         fit_size=window, out=Path(out) if out else None, rounds=rounds)


#: the coordinate of a built-in heap game (one heap)
HEAP = "n"


def toml_value(value: Any) -> str:
    """A value of a game's declaration (strings, integers, booleans, lists, tables) as TOML text.

    >>> toml_value([{"to": "x - t", "where": "1 <= t <= x"}])
    '[ { to = "x - t", where = "1 <= t <= x" } ]'
    >>> toml_value(True), toml_value(3)
    ('true', '3')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return json.dumps(value)   # a JSON string is a TOML basic string (the same escapes)
    if isinstance(value, list):
        return "[ " + ", ".join(toml_value(v) for v in value) + " ]" if value else "[]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise SpecError(f"nimjos discover cannot copy a declaration value {value!r}")


def _key(name: str) -> str:
    """A TOML key: bare when it is a plain name, else quoted."""
    return name if name.replace("-", "_").isidentifier() else json.dumps(name)


def game_source(target: str, assignments: list[str], domain: str | None = None, spec: Spec | None = None) -> GameSource:
    """The game ``target`` names (``FILE::NAME``, ``FILE::EXPR`` or ``EXPR``) as a discovered claim names it, on
    ``domain`` (``--domain``), else on the declared game's ``domain`` field, else on every position (``spec``: FILE
    already loaded, else it is loaded here).

    >>> game_source('octal("0.77")', []).coords
    ('n',)
    >>> game_source('octal("0.77")', [], "n >= 3").domain
    'n >= 3'
    """
    path, sep, name = target.rpartition("::")
    spec = (spec if spec is not None else load_spec(path)) if sep else None
    if spec is None or name not in spec.games:
        if assignments:
            raise SpecError("--param gives the params of a declared game; write a built-in game's in its expression")
        game, _, _, ns = resolve_game(target, [], spec)
        return GameSource(name, (HEAP,), "", heap=True, misere=game.play == MISERE,
                          domain=checked_domain(domain or "", (HEAP,), ns))
    decl = spec.games[name]
    misere = decl.play == MISERE
    values = {name.strip(): value for name, _, value in (a.partition("=") for a in assignments)}
    args = [values.get(p, "").strip() for p in decl.params]
    if any(not a for a in args):
        raise SpecError(f"game {name} needs --param NAME=VALUE for each of {', '.join(decl.params)}")
    raw = tomllib.loads(spec.text)["game"][name]
    body = [f"{_key(key)} = {toml_value(value)}" for key, value in raw.items()]
    claim_game = f"{name}({', '.join(args)})" if args else name
    return GameSource(claim_game, tuple(decl.position), "\n".join([f"[game.{name}]"] + body) + "\n", misere=misere,
                      domain=checked_domain(domain or decl.domain, tuple(decl.position), spec.namespace,
                                            "--domain" if domain else f"the domain of game {name}"))


def checked_domain(text: str, names: tuple[str, ...], ns: Namespace, where: str = "--domain") -> str:
    """The text of a domain (``--domain``, or the game's field: ``where``), stripped, when it is a condition naming
    only the game's coordinates (and the language's built-ins: a param has no value in the claims discover writes);
    else a spec error naming ``where``.

    >>> checked_domain(" a < b ", ("a", "b"), Namespace())
    'a < b'
    >>> checked_domain("a < d", ("a", "b"), Namespace())
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: --domain 'a < d': the domain names d, which is neither a param nor a coordinate of the game (the game's coordinates: a, b)
    """
    text = text.strip()
    if text:
        try:
            names_only(text, ns, set(names), "domain")
        except SpecError as exc:
            raise SpecError(f"{where} {text!r}: {exc.message}",
                            hint=f"the game's coordinates: {', '.join(names)}") from None
    return text


def table_function(target: str, assignments: list[str], names: tuple[str, ...], domain: str = "",
                   spec: Spec | None = None):
    """The table of the game on the box from 0 up to given highs, from its moves (``nimjos grundy``'s table), with
    -1 at the cells outside ``domain``. The game is resolved once (from ``spec``, FILE already loaded, or loading
    it), and every table is computed on that one instance.

    >>> table_function('subtraction({1, 2})', [], ("n",))((7,)).tolist()
    [0, 1, 2, 0, 1, 2, 0, 1]
    >>> table_function('subtraction({1, 2})', [], ("n",), "n >= 5")((7,)).tolist()
    [-1, -1, -1, -1, -1, 2, 0, 1]
    """
    resolved = resolve_game(target, assignments, spec)

    def table_of(highs: tuple[int, ...]) -> np.ndarray:
        window = " and ".join(f"0 <= {n} <= {h}" for n, h in zip(names, highs))
        values, how = grundy_table(target, assignments, f"{window} and ({domain})" if domain else window,
                                   resolved=resolved)
        if not domain:
            return values
        full = np.full(tuple(h + 1 for h in highs), OUTSIDE, dtype=np.int64)   # the box from 0: the table's corner
        full[tuple(slice(lo, lo + n) for lo, n in zip(how["origin"], np.shape(values)))] = values
        return full
    return table_of
