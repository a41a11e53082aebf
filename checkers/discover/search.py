"""The discovery loop: fit each class of descriptions on a game's table, simplest first, confirm the fit on a
larger table, print it as a claim of the spec format and check that claim with every method (as ``nimjos check``
does), so that the word printed beside a description is the verdict the methods earned, never more.

The classes, in order: for one heap (one coordinate), periodic and arithmetic-periodic (with saltus), observed on
the table by :func:`nimjos.games.periodicity.detect` and proved by the periodicity theorems (the Guy-Smith theorem,
the repeating state of a finite subtraction set, the mex certificate in Walnut); then, for any number of
coordinates, the P-positions as a formula of the grammar of :mod:`checkers.discover.grammar` and the Grundy
values as one of its terms, proved by the local certificate (Walnut, Z3). The table comes from the caller (the
game's moves, the engines): this module never sees a paper's formula.

>>> import numpy as np
>>> game = GameSource('subtraction({1, 2})', ("n",), "", heap=True)
>>> found = discover(game, lambda highs: np.arange(highs[0] + 1) % 3, fit_size=60, prove=False)
>>> found.found[0].statement, found.found[0].verdict
('periodic = { period = 3, preperiod = 0, saltus = 0 }', 'not checked')
"""
from __future__ import annotations

import ast
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from checkers.discover.automaton import learn, limit
from checkers.discover.grammar import (agrees, beatty_pairs, disagreements, disjunctions, fit_grundy,
                                      fit_p_set, irrational_slope, read_back, with_exceptions)
from checkers.options import RunOptions
from checkers.run import run_claim
from nimjos.games.periodicity import detect, observe
from nimjos.lang.build import binary, call, compare, conjunction, constant, disjunction, integers, name, show
from nimjos.lang.errors import NimjosError, SpecError, each_error
from nimjos.lang.stored import read_walnut
from nimjos.spec.loader import load_spec
from nimjos.verdict import Phrases, phrases, render_scope
from nimjos.words import PhraseKind

#: the table of a game on the box from 0 up to ``highs`` (one highest value per coordinate), from its moves
TableOf = Callable[[tuple[int, ...]], np.ndarray]

#: the class of P-sets recognised by an automaton reading the coordinates' base-2 digits together
AUTOMATON = "automaton (msd_2)"
#: ... reading their digits in the Fibonacci (Zeckendorf) and the Pell numerations, tried in this order when the
#: classes before found nothing: numeration -> class
AUTOMATA = {"msd_2": AUTOMATON, "msd_fib": "automaton (msd_fib)", "msd_pell": "automaton (msd_pell)"}
#: the name of a learned automaton in the spec discover writes (an ``[automaton.NAME]`` table), and the claim id
AUTOMATON_NAME, AUTOMATON_CLAIM = "learned_P", "discovered-automaton"
#: the claim that a proved automaton equals the formula it is read back as (a ``holds`` claim Walnut decides)
READ_BACK_CLAIM = "discovered-automaton-formula"
#: the most fitted formulas of one class checked in turn while the methods refute the simpler ones
MAX_CANDIDATES = 3
#: the default largest coordinate of the box a class is fitted on, by the number of coordinates
FIT_SIZE = {1: 1000, 2: 63, 3: 15}
#: the class of one-coordinate P-sets that are periodic (finite exceptions below a preperiod), for misère play
PERIODIC_P = "periodic P-positions"
#: the classes of P-set formulas, simplest first: a conjunction of atoms, two conjunctions joined by ``or``, a
#: conjunction with a finite exception set in the corner of the small coordinates, and (two coordinates) a Beatty
#: pair of floor_phi or floor_sqrt2 (Fibonacci and Pell numerations)
P_FORMULA, DISJUNCTION, EXCEPTIONS = "P-positions formula", "P-positions disjunction", "P-positions with exceptions"
BEATTY_PAIR = "P-positions Beatty pair"
P_FORMULAS = (P_FORMULA, DISJUNCTION, EXCEPTIONS, BEATTY_PAIR)


def p_classes(dim: int) -> tuple[str, ...]:
    """The classes of P-set formulas tried on a game of ``dim`` coordinates, in order.

    >>> p_classes(3)
    ('P-positions formula', 'P-positions disjunction', 'P-positions with exceptions')
    """
    return tuple(k for k in P_FORMULAS if k != BEATTY_PAIR or dim == 2)


#: the classes tried, by the number of coordinates, in the order they are tried (a class is tried only when the
#: ones before it found nothing)
CLASSES = {1: ("periodic", "arithmetic-periodic", *p_classes(1), "Grundy formula", *AUTOMATA.values()),
           2: (*p_classes(2), "Grundy formula", *AUTOMATA.values()),
           3: (*p_classes(3), "Grundy formula", *AUTOMATA.values())}
#: the classes tried on a game in misère play: its P-positions only (its outcomes are what misère play defines; a
#: normal-play pattern or Grundy formula of its misère values is no claim of the spec format)
MISERE_CLASSES = {1: (PERIODIC_P, *p_classes(1), *AUTOMATA.values()), 2: (*p_classes(2), *AUTOMATA.values()),
                  3: (*p_classes(3), *AUTOMATA.values())}
#: the name a spec discover builds in memory goes by (in the results of its checks; no such file is read or written)
SPEC_NAME = "discovered.toml"
#: the value of a cell of a table outside the game's domain (``nimjos grundy``'s table of a filtered window)
OUTSIDE = -1


class DiscoveryBug(NimjosError):
    """A claim ``nimjos discover`` wrote does not load: a fault of discover itself, never of the user's spec."""


@dataclass(frozen=True)
class GameSource:
    """A game as a discovered claim names it: its text in a claim's ``game`` field, its coordinates, the TOML that
    declares it (empty for a built-in family), whether it is a built-in heap game and whether it is played in misère
    play."""

    claim_game: str
    coords: tuple[str, ...]
    declarations: str = ""
    heap: bool = False
    #: the game is played in misère play: its P-positions are fitted (the table holds misère Grundy values)
    misere: bool = False
    #: the positions the game is played on, a condition on the coordinates (``a < b < c``); empty: every
    #: position of natural numbers. The fit, the confirmation and the claims' ``for_all`` are this domain
    domain: str = ""


@dataclass
class Found:
    """One description found: its class, the claim's statement line, the whole claim, and what checking it gave."""

    klass: str
    statement: str
    claim: str
    verdict: str = "not checked"
    method: str = ""
    #: the scope of the check it was given, with what discover adds (how it was learned, read back, stored)
    phrases: Phrases = ()
    states: int | None = None
    seconds: float = 0.0
    #: a learned automaton's text in Walnut's format (the claim calls it as AUTOMATON_NAME), else empty
    stored: str = ""
    #: a proved automaton read back: the formula Walnut proved equal to it (empty: none of the read-back classes)
    formula: str = ""
    #: ... that formula's tree (None: none)
    formula_tree: ast.expr | None = None

    @property
    def scope(self) -> str:
        """The scope in words (:func:`nimjos.verdict.render_scope`).

        >>> Found("periodic", "", "", phrases=phrases(("class", "every n >= 0"))).scope
        'every n >= 0'
        """
        return render_scope(self.phrases)

    @property
    def numeration(self) -> str:
        """The numeration a learned automaton reads (the first word of its Walnut file; msd_2 without one).

        >>> Found("automaton (msd_fib)", "", "", stored="msd_fib msd_fib\\n").numeration
        'msd_fib'
        """
        return self.stored.split(maxsplit=1)[0] if self.stored else "msd_2"

    def to_json(self) -> dict[str, Any]:
        """The description as ``--json`` prints it.

        >>> Found("periodic", "periodic = { period = 1 }", "[[claim]]").to_json()["class"]
        'periodic'
        """
        return {"class": self.klass, "statement": self.statement, "claim": self.claim, "verdict": self.verdict,
                "method": self.method, "scope": self.scope, "states": self.states, "seconds": round(self.seconds, 3),
                "formula": self.formula or None}


@dataclass
class Discovery:
    """What discovery gave on one game: the descriptions found (each checked), the classes tried, the positions
    valued, and the closest description of the grammar when nothing fits."""

    game: GameSource
    tried: list[str]
    found: list[Found] = field(default_factory=list)
    positions: int = 0
    window: str = ""
    closest: str | None = None
    seconds: float = 0.0
    #: the statements that fitted the tables but that the methods refuted beyond them
    refuted: list[str] = field(default_factory=list)
    #: why each class tried printed nothing: class -> the reason (no fit on the small box; the simplest fit of the
    #: small box and where the larger box breaks it; every fit refuted)
    misses: dict[str, str] = field(default_factory=dict)
    #: the simplest formula that fits the small box but not the larger one (checked on the small box only)
    near_miss: str | None = None


def box_text(names: Sequence[str], high: int) -> str:
    """A window's text: every coordinate from 0 up to ``high``.

    >>> box_text(("x", "y"), 7)
    'x <= 7 and y <= 7'
    """
    return show(conjunction([compare(name(n), ast.LtE, constant(high)) for n in names]))


def domain_text(names: Sequence[str], domain: str = "") -> str:
    """The domain of a discovered claim: every coordinate a natural number, and the game's domain when it has one
    (its text as the game or ``--domain`` writes it).

    >>> domain_text(("x", "y"))
    '0 <= x and 0 <= y'
    >>> domain_text(("a", "b", "c"), "a < b < c")
    '0 <= a and 0 <= b and 0 <= c and (a < b < c)'
    """
    naturals = show(conjunction([compare(constant(0), ast.LtE, name(n)) for n in names]))
    return f"{naturals} and ({domain})" if domain else naturals


def claim_block(cid: str, klass: str, game: GameSource, window_high: int, statement: str) -> str:
    """The ``[[claim]]`` table of one description, in the spec format.

    >>> print(claim_block("discovered-p", "P-positions formula", GameSource("nim2", ("x", "y")), 9,
    ...                   'p_positions = "x == y"'))
    [[claim]]
    id = "discovered-p"
    text = "Discovered by nimjos discover from the moves of nim2 (P-positions formula)"
    game = "nim2"
    position = ["x", "y"]
    for_all = "0 <= x and 0 <= y"
    window = "x <= 9 and y <= 9"
    p_positions = "x == y"
    expect = "holds"
    """
    lines = ["[[claim]]", f"id = {json.dumps(cid)}",
             f"text = {json.dumps(f'Discovered by nimjos discover from the moves of {game.claim_game} ({klass})')}",
             f"game = {json.dumps(game.claim_game)}", f"position = {json.dumps(list(game.coords))}",
             f"for_all = {json.dumps(domain_text(game.coords, game.domain))}",
             f"window = {json.dumps(box_text(game.coords, window_high))}", statement, 'expect = "holds"']
    return "\n".join(lines)


def source_id(claim_game: str) -> str:
    """The source id of a discovered spec: the game's text reduced to letters, digits and hyphens.

    >>> source_id('cyclic_nimhoff2(3)'), source_id('subtraction({1, 2, 3})')
    ('discovered-cyclic-nimhoff2-3', 'discovered-subtraction-1-2-3')
    """
    return "discovered-" + re.sub(r"[^a-z0-9]+", "-", claim_game.lower()).strip("-")


def automaton_file(out: Path | None) -> str:
    """The file name of a learned automaton, beside the spec ``out`` (``NAME_P.txt``; ``discovered_P.txt`` without one).

    >>> automaton_file(Path("runs/nim2.toml")), automaton_file(None)
    ('nim2_P.txt', 'discovered_P.txt')
    """
    return (out.stem if out is not None else "discovered") + "_P.txt"


def spec_text(game: GameSource, claims: Sequence[str], automata: dict[str, str] | None = None,
              numeration: str = "msd_2") -> str:
    """A whole spec file: its source, the stored automata it declares (`automata`: name -> file beside the spec,
    each reading ``numeration``), the declarations of the game, and the claims.

    >>> spec_text(GameSource('octal("0.77")', ("n",)), ["[[claim]]"]).splitlines()[1:]
    ['[source]', 'id = "discovered-octal-0-77"', 'title = "Discovered from the moves of octal(\\\\"0.77\\\\")"', '', '[[claim]]']
    """
    head = ["# written by nimjos discover: descriptions fitted on the game's table (from its moves), each checked "
            "by nimjos check", "[source]", f"id = {json.dumps(source_id(game.claim_game))}",
            f"title = {json.dumps('Discovered from the moves of ' + game.claim_game)}", ""]
    tables = [f"[automaton.{name}]\nfile = {json.dumps(file)}\nnumeration = {json.dumps(numeration)}\n"
              for name, file in (automata or {}).items()]
    body = [game.declarations] if game.declarations else []
    return "\n".join(head + tables + body + ["\n\n".join(claims)]) + "\n"


def check_claims(text: str, ids: Sequence[str], files: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """Check the claims ``ids`` of the spec ``text``, built in memory (its stored automata's files in ``files``, name
    -> text; nothing is written), with every method that applies: each claim's final verdict, method, scope and
    Walnut's largest automaton.

    >>> text = spec_text(GameSource('subtraction({1, 2})', ("n",)), [claim_block("c", "periodic",
    ...     GameSource('subtraction({1, 2})', ("n",)), 60, "periodic = { period = 3 }")])
    >>> check_claims(text, ["c"])["c"]["verdict"]
    'proved'
    """
    try:
        spec = load_spec(SPEC_NAME, text=text, files=files or {})
    except SpecError as exc:   # discover wrote it: its fault, never the user's
        faults = "; ".join(f"{e.item or 'the spec'}" + (f", field {e.field!r}" if e.field else "") + f": {e.message}"
                           for e in each_error(exc))
        raise DiscoveryBug(f"nimjos discover wrote a claim that does not load ({faults}): a fault of nimjos "
                           "discover, not of your spec") from None
    out = {}
    for cid in ids:
        started = time.perf_counter()
        final = run_claim(spec.claim(cid), RunOptions(repair=False)).final
        out[cid] = {"verdict": final.verdict, "method": final.method, "scope": final.scope, "phrases": final.phrases,
                    "states": final.automaton_states,
                    "seconds": time.perf_counter() - started}
    return out


def _columns(shape: tuple[int, ...]) -> list[np.ndarray]:
    """The coordinates of every cell of a box from 0 of this shape, one flat array per coordinate."""
    return [a.ravel() for a in np.meshgrid(*[np.arange(n) for n in shape], indexing="ij")]


def _periodic(values: np.ndarray) -> str | None:
    """The periodic statement a one-heap table shows (None: no period within it)."""
    seen = detect(np.asarray(values, dtype=np.int64))   # the table itself: no Python int per value
    if seen is None:
        return None
    return f"periodic = {{ period = {seen.period}, preperiod = {seen.preperiod}, saltus = {seen.saltus} }}"


def periodic_p_set(values: np.ndarray, coord: str) -> ast.expr | None:
    """The P-positions (zeros) of a one-coordinate table as a periodic set, with its P-positions below the
    preperiod listed, as a ``p_positions`` formula; None when the table shows no such pattern with several periods
    of evidence (:func:`nimjos.games.periodicity.observe`).

    >>> show(periodic_p_set(np.array([1, 1, 0, 0] * 10), "n"))
    'n % 4 in {2, 3}'
    >>> show(periodic_p_set(np.array([1, 0, 1, 1, 0, 2] + [1, 0] * 20), "n"))
    'n in {1, 4} or (n >= 6 and n % 2 == 1)'
    """
    zeros = np.asarray(values) == 0
    found = observe(zeros.astype(np.int64))
    if found is None:
        return None
    p, n0 = found.period, found.preperiod
    early = [i for i in range(n0) if zeros[i]]
    residues = sorted({i % p for i in range(n0, n0 + p) if zeros[i]})

    def among(tree: ast.expr, values: list[int]) -> ast.expr:
        return compare(tree, ast.Eq, constant(values[0])) if len(values) == 1 else compare(tree, ast.In,
                                                                                           integers(values))
    parts = [among(name(coord), early)] if early else []
    if residues:
        tail = among(binary(name(coord), ast.Mod, constant(p)), residues)
        parts.append(conjunction([compare(name(coord), ast.GtE, constant(n0)), tail]) if n0 else tail)
    return disjunction(parts) if parts else None


#: the fit of each class of P-set formulas: (coordinates, their columns, the P-positions) -> formulas, simplest first
P_FITS = {P_FORMULA: fit_p_set, DISJUNCTION: disjunctions, EXCEPTIONS: with_exceptions, BEATTY_PAIR: beatty_pairs}


#: the least number of P-positions of a table whose thinning out is reported, and the least factor by which their
#: share must fall from each box to the next (the boxes n <= N / 4, N / 2, N)
THIN_COUNT, THIN_FACTOR = 8, 1.25


def thinning(inside: np.ndarray) -> str | None:
    """When the P-positions (``inside``, over n = 0 .. N) thin out, their share falling by at least
    :data:`THIN_FACTOR` from n <= N / 4 to n <= N / 2 to n <= N, what a theorem then says of the periodic classes;
    None otherwise. An observation on the table, stated as such: the theorem applies if the density is 0.

    >>> print(thinning(np.isin(np.arange(400), [k * k for k in range(21)])))
    the P-positions thin out (their share of n <= 99, 199, 399: 10.0%, 7.5%, 5.0%, 20 in all): if their density is 0 and there are infinitely many, no periodic description exists (an eventually periodic set with a P-position in its period has density at least 1 / period)
    >>> thinning(np.arange(400) % 3 == 0) is None
    True
    """
    n = len(inside)
    tops = [n // 4 - 1, n // 2 - 1, n - 1]
    if tops[0] < 8 or int(inside.sum()) < THIN_COUNT:
        return None
    shares = [float(inside[:t + 1].mean()) for t in tops]
    if not all(a >= THIN_FACTOR * b for a, b in zip(shares, shares[1:])):
        return None
    return (f"the P-positions thin out (their share of n <= {', '.join(map(str, tops))}: "
            f"{', '.join(f'{100 * v:.1f}%' for v in shares)}, {int(inside.sum())} in all): if their density is 0 and "
            "there are infinitely many, no periodic description exists (an eventually periodic set with a P-position "
            "in its period has density at least 1 / period)")


def _residue(coord: str, m: int, r: int) -> ast.expr:
    """``coord % m == r``, for the examples."""
    return compare(binary(name(coord), ast.Mod, constant(m)), ast.Eq, constant(r))


def _confirmed(candidates: list[ast.expr], names: Sequence[str], columns: list[np.ndarray],
               expected: np.ndarray) -> list[ast.expr]:
    """The first :data:`MAX_CANDIDATES` candidates (simplest first) that also agree with the larger table (those
    after them not evaluated).

    >>> n = np.arange(20)
    >>> odd = compare(binary(name("n"), ast.BitAnd, constant(1)), ast.Eq, constant(0))
    >>> [show(c) for c in _confirmed([_residue("n", 2, 0), odd, _residue("n", 4, 0)], ("n",), [n], n % 2 == 0)]
    ['n % 2 == 0', 'n & 1 == 0']
    """
    out: list[ast.expr] = []
    for c in candidates:
        if len(out) == MAX_CANDIDATES:
            break
        if agrees(c, names, columns, expected):
            out.append(c)
    return out


def first_wrong(formula: ast.expr, names: Sequence[str], columns: list[np.ndarray], expected: np.ndarray) -> str:
    """The least position (by its largest coordinate, then its coordinates) where a formula differs from the table,
    with the table's value there.

    >>> n = np.arange(20)
    >>> first_wrong(_residue("n", 3, 0), ("n",), [n], n % 6 == 0)
    'n = 3 (the table: False)'
    """
    wrong = disagreements(formula, names, columns, expected)
    if wrong is None or not wrong.any():
        return "nowhere"
    at = np.flatnonzero(wrong)
    point = min(at.tolist(), key=lambda i: (max(int(c[i]) for c in columns), [int(c[i]) for c in columns]))
    value = expected[point].item()
    return (", ".join(f"{n} = {int(c[point])}" for n, c in zip(names, columns)) + f" (the table: {value})")


def _automaton(game: GameSource, small: np.ndarray, big: np.ndarray, table_of: TableOf, rounds: int,
               window_high: int, numeration: str = "msd_2") -> tuple[Found | None, str | None, int]:
    """The P-set as an automaton reading the coordinates' digits in ``numeration``, learned on the largest box
    below a place L_k of the numeration (2^k in msd_2) in ``small`` and confirmed on the box below L_(k+1) (in
    ``big``); when that fails, learned again on the larger box and confirmed on the next place (a table from
    ``table_of``), at most ``rounds`` confirmations in all. (the description, checked on the last window; None;
    positions valued beyond ``big``) when one is stable, else (None, the automaton learned on the last box, which
    agrees with that window only; positions). The description is the claim ``p_positions = "learned_P(x, y)"``
    over the window up to ``window_high``, the automaton stored beside the spec (:data:`AUTOMATON_NAME`), not yet
    checked."""
    names, klass = game.coords, AUTOMATA[numeration]
    k = 0
    while limit(numeration, k + 1) <= min(small.shape):
        k += 1
    while k >= 1 and limit(numeration, k + 1) > min(big.shape):   # a place whose next one the larger box reaches
        k -= 1
    if k < 1 or limit(numeration, k + 1) > min(big.shape):
        return None, None, 0
    learned_on, table, valued = small, big, 0
    for round_ in range(rounds):
        if round_:
            learned_on, k = table, k + 1
            table = np.asarray(table_of((limit(numeration, k + 1) - 1,) * len(names)))
            valued += int(table.size)
        top = limit(numeration, k + 1)
        inside = table[tuple(slice(0, top) for _ in names)] == 0
        columns = [c.reshape(inside.shape) for c in _columns(inside.shape)]
        learned = learn(learned_on == 0, k, numeration)
        where = " and ".join(f"{n} < {top}" for n in names)
        if np.array_equal(learned.accepts(columns), inside):
            scope = phrases((PhraseKind.ENGINE, f"an automaton of {learned.states} states ({numeration}, "
                                                f"{', '.join(names)} read together) learned by RPNI on "
                                                f"{' and '.join(f'{n} < {limit(numeration, k)}' for n in names)}"),
                            (PhraseKind.FINDING, f"agrees with the P-positions (from the moves) at every position of "
                                                 f"{where}" + (f" (read as not P outside the domain {game.domain})"
                                                               if game.domain else "")))
            statement = f"p_positions = {json.dumps(AUTOMATON_NAME + '(' + ', '.join(names) + ')')}"
            return Found(klass, statement, claim_block(AUTOMATON_CLAIM, klass, game, window_high, statement),
                         phrases=scope, states=learned.states, stored=learned.walnut()), None, valued
    wider = learn(inside, k + 1, numeration)
    return None, (f"an automaton of {wider.states} states ({numeration}) agrees with the P-positions on {where}, but "
                  f"the one of {learned.states} states learned below {limit(numeration, k)} did not: no stable "
                  f"automaton within the budget of {rounds} confirmation(s) (checked on the window only)"), valued


def _checked_automaton(game: GameSource, automaton: Found, result: Discovery,
                       small: tuple[list[np.ndarray], np.ndarray], big: list[np.ndarray], high: int,
                       out: Path | None) -> Found | None:
    """A stable automaton checked as ``nimjos check`` checks it (the automaton beside the spec), then, when proved,
    read back as a formula; None when the methods refute it (listed in ``result.refuted``)."""
    files = {automaton_file(out): automaton.stored + "\n"}
    c = check_claims(spec_text(game, [automaton.claim], {AUTOMATON_NAME: automaton_file(out)}, automaton.numeration),
                     [AUTOMATON_CLAIM], files=files)[AUTOMATON_CLAIM]
    automaton.verdict, automaton.method = c["verdict"], c["method"]
    automaton.phrases = phrases(c["phrases"], automaton.phrases)
    automaton.states, automaton.seconds = c["states"] or automaton.states, c["seconds"]
    if automaton.verdict == "refuted":
        result.refuted.append(f"{automaton.statement} ({automaton.scope})")
        result.misses[automaton.klass] = "the stable automaton was refuted by the methods beyond the tables"
        return None
    if automaton.verdict == "proved":   # read back as a formula
        learned = read_walnut(automaton.stored, automaton.numeration).automaton
        formula, why = read_automaton_back(game, automaton, learned, small, big, high, out)
        if formula is not None:
            automaton.formula, automaton.formula_tree = show(formula), formula
            automaton.claim += "\n\n" + read_back_block(game, high, formula)
            automaton.phrases = phrases(automaton.phrases, (PhraseKind.READ_BACK, f"read back as {automaton.formula!r}, "
                                                                                  f"proved equal to it: {why}"))
        else:
            automaton.phrases = phrases(automaton.phrases, (PhraseKind.READ_BACK, f"not read back as a formula: {why}"))
    return automaton


def base2_exclusion(formula: ast.expr | None) -> str | None:
    """When a P-set is proved equal to a Beatty pair of an irrational alpha (``formula``, the tree it was read back
    as), why no base-2 automaton describes it (a theorem); else None.

    >>> from checkers.discover.grammar import beatty_side
    >>> pair = disjunction([beatty_side("x", "y", "floor_phi", 1), beatty_side("y", "x", "floor_phi", 1)])
    >>> print(base2_exclusion(pair))
    excluded by a theorem: the P-set is proved equal to a Beatty pair of alpha = phi, so that its lower coordinates form {floor(n alpha)}, of density 1 / phi, irrational; were the P-set automatic in base 2, so would that set be (a projection of it), and a letter's frequency in a base-2 automatic sequence, when it exists, is rational (Cobham 1972)
    >>> base2_exclusion(_residue("x", 5, 0)) is None, base2_exclusion(None) is None
    (True, True)
    """
    slope = irrational_slope(formula) if formula is not None else None
    if slope is None:
        return None
    alpha, density = slope
    return (f"excluded by a theorem: the P-set is proved equal to a Beatty pair of alpha = {alpha}, so that "
            f"its lower coordinates form {{floor(n alpha)}}, of density {density}, irrational; were the P-set "
            "automatic in base 2, so would that set be (a projection of it), and a letter's frequency in a "
            "base-2 automatic sequence, when it exists, is rational (Cobham 1972)")


def read_back_block(game: GameSource, window_high: int, formula: ast.expr) -> str:
    """The ``holds`` claim that the learned automaton equals ``formula`` on the game's domain.

    >>> print(read_back_block(GameSource("g", ("x", "y")), 9, compare(name("x"), ast.Eq,
    ...                                                               binary(name("y"), ast.Mod, constant(5)))))
    [[claim]]
    id = "discovered-automaton-formula"
    text = "The automaton learned_P that nimjos discover learned from the moves of g, read back as a formula"
    for_all = "0 <= x and 0 <= y"
    window = "x <= 9 and y <= 9"
    holds = "learned_P(x, y) == (x == y % 5)"
    expect = "holds"
    """
    equal = compare(call(AUTOMATON_NAME, *map(name, game.coords)), ast.Eq, formula)
    text = (f"The automaton {AUTOMATON_NAME} that nimjos discover learned from the moves of {game.claim_game}, read "
            "back as a formula")
    return "\n".join(["[[claim]]", f"id = {json.dumps(READ_BACK_CLAIM)}", f"text = {json.dumps(text)}",
                      f"for_all = {json.dumps(domain_text(game.coords, game.domain))}",
                      f"window = {json.dumps(box_text(game.coords, window_high))}",
                      f"holds = {json.dumps(show(equal))}", 'expect = "holds"'])


def read_automaton_back(game: GameSource, automaton: Found, learned: Any, small: tuple[list[np.ndarray], np.ndarray],
                        big: list[np.ndarray], window_high: int, out: Path | None) -> tuple[ast.expr | None, str]:
    """A proved automaton read back as a formula (:func:`checkers.discover.grammar.read_back`): fitted on the
    positions ``small`` (columns, the table's P-positions there), confirmed where the automaton accepts on the
    positions ``big``, then each candidate (at most :data:`MAX_CANDIDATES`) stated as the ``holds`` claim that the
    automaton equals it on the game's domain and checked with every method: (the first formula ``proved`` so, the
    claim's scope), or (None, why none was)."""
    names = game.coords
    fitted = read_back(names, small[0], small[1], learned.states)
    inside = learned.accepts(big)
    confirmed = _confirmed(fitted, names, big, inside)
    for formula in confirmed:
        block = read_back_block(game, window_high, formula)
        text = spec_text(game, [automaton.claim, block], {AUTOMATON_NAME: automaton_file(out)}, automaton.numeration)
        c = check_claims(text, [READ_BACK_CLAIM], files={automaton_file(out): automaton.stored + "\n"})
        if c[READ_BACK_CLAIM]["verdict"] == "proved":
            return formula, c[READ_BACK_CLAIM]["scope"]
    why = ("no formula of the read-back classes (a conjunction, a disjunction or finite exceptions, of the grammar's "
           f"atoms and residues modulo 5 to {min(learned.states, 12)}) agrees with it on {window_high_text(names, big)}"
           if not confirmed else f"{len(confirmed)} formula(s) agreeing with it on the window were not proved equal "
           "to it")
    return None, why


def window_high_text(names: Sequence[str], columns: list[np.ndarray]) -> str:
    """The box the positions ``columns`` span, as text.

    >>> window_high_text(("x", "y"), [np.arange(4), np.arange(4)])
    'x <= 3 and y <= 3'
    """
    return box_text(names, max(int(c.max()) for c in columns) if columns[0].size else 0)


def discover(game: GameSource, table_of: TableOf, fit_size: int | None = None, prove: bool = True,
             out: Path | None = None, rounds: int = 1) -> Discovery:
    """Discover descriptions of ``game`` from its table: fitted on the box from 0 up to ``fit_size`` in every
    coordinate, confirmed on the box up to twice that, then printed as claims and checked (``prove``: with every
    method; the spec written to ``out`` when given). An automaton gets at most ``rounds`` confirmations, each on the
    box below the next power of two (a count, never a time). The table of the larger box is computed once, and the
    small box is its corner (``table_of`` gives the box from 0): every position is valued once.

    >>> game = GameSource('subtraction({1, 2})', ("n",), heap=True)
    >>> result = discover(game, lambda highs: np.arange(highs[0] + 1) % 3, fit_size=30, prove=False)
    >>> result.tried, result.window
    (['periodic', 'arithmetic-periodic'], 'n <= 61')
    """
    started = time.perf_counter()
    names, dim = game.coords, len(game.coords)
    size = fit_size or FIT_SIZE.get(dim, 7)
    high = 2 * size + 1
    big = np.asarray(table_of((high,) * dim))
    small = big[(slice(0, size + 1),) * dim]
    in_small, in_big = small.ravel() != OUTSIDE, big.ravel() != OUTSIDE   # the positions of the game's domain
    result = Discovery(game, [], positions=int(in_big.sum()), window=box_text(names, high))
    cols_small = [c[in_small] for c in _columns(small.shape)]
    cols_big = [c[in_big] for c in _columns(big.shape)]
    values_small, values_big = small.ravel()[in_small], big.ravel()[in_big]

    def settle(cid: str, klass: str, statements: list[str]) -> bool:
        """Check the statements in turn, the next only when the methods refute this one beyond the tables; whether
        one was found (and kept)."""
        for statement in statements:
            found = Found(klass, statement, claim_block(cid, klass, game, high, statement))
            if prove:
                c = check_claims(spec_text(game, [found.claim]), [cid])[cid]
                found.verdict, found.method, found.phrases = c["verdict"], c["method"], c["phrases"]
                found.states, found.seconds = c["states"], c["seconds"]
            if found.verdict == "refuted":
                result.refuted.append(statement)
                continue
            result.found.append(found)
            return True
        return False

    periodic = False
    if dim == 1 and not game.domain and game.misere:   # misère play defines outcomes: the P-positions only
        result.tried.append(PERIODIC_P)
        p_set = periodic_p_set(big, names[0])
        periodic = p_set is not None and settle("discovered-p-positions", PERIODIC_P,
                                                [f"p_positions = {json.dumps(show(p_set))}"])
    elif dim == 1 and not game.domain:
        result.tried += ["periodic", "arithmetic-periodic"]
        statement = _periodic(big)
        if statement is not None:
            klass = "periodic" if statement.endswith("saltus = 0 }") else "arithmetic-periodic"
            periodic = settle("discovered-" + klass, klass, [statement])
    small_box, big_box = box_text(names, size), box_text(names, high)

    def fit_class(cid: str, klass: str, kind: str, fitted: list[ast.expr], expected: np.ndarray) -> bool:
        """Confirm the fits of one class on the larger table and check them; whether one was kept. Why nothing was
        kept goes to ``result.misses``."""
        fits = _confirmed(fitted, names, cols_big, expected)
        if settle(cid, klass, [f"{kind} = {json.dumps(show(f))}" for f in fits]):
            return True
        if not fitted:
            result.misses[klass] = f"no formula of the class agrees with the table on {small_box}"
        elif not fits:
            result.misses[klass] = (f"{show(fitted[0])!r} agrees with the table on {small_box} but not on "
                                    f"{big_box}: wrong at {first_wrong(fitted[0], names, cols_big, expected)}")
            result.near_miss = result.near_miss or (f"{kind} = {json.dumps(show(fitted[0]))} ({klass}; checked on "
                                                    f"{small_box} only)")
        else:
            result.misses[klass] = "every fit agreeing with the tables was refuted by the methods beyond them"
        return False

    if dim == 1 and not game.domain and not periodic and not result.refuted:
        sparse = thinning(values_big == 0)
        for klass in result.tried:
            result.misses[klass] = (f"the table shows no such pattern with several periods of evidence on {big_box}"
                                    + (f"; {sparse}" if sparse else ""))
    if not periodic:
        for klass in p_classes(dim):   # simplest first: the next class only when this one found nothing
            result.tried.append(klass)
            if fit_class("discovered-p-positions", klass, "p_positions",
                         P_FITS[klass](names, cols_small, values_small == 0), values_big == 0):
                break
        if not game.misere:
            result.tried.append("Grundy formula")
            fit_class("discovered-grundy", "Grundy formula", "grundy", fit_grundy(names, cols_small, values_small),
                      values_big)
    if not any(f.klass in (*P_FORMULAS, PERIODIC_P) or f.klass.endswith("periodic") for f in result.found):
        for numeration, klass in AUTOMATA.items():   # base 2, then Fibonacci, then Pell: the first found and kept
            result.tried.append(klass)
            automaton, closest, valued = _automaton(game, small, big, table_of, rounds, high, numeration)
            result.closest = result.closest or closest
            if closest:
                result.misses[klass] = closest
            elif automaton is None:
                result.misses[klass] = f"the tables are too small for a confirmation in {numeration}"
            result.positions += valued
            if automaton is not None and prove:
                automaton = _checked_automaton(game, automaton, result, (cols_small, values_small == 0), cols_big,
                                               high, out)
            if automaton is not None:
                result.found.append(automaton)
                excluded = base2_exclusion(automaton.formula_tree)
                if excluded and AUTOMATON in result.misses:
                    result.misses[AUTOMATON] += f"; {excluded}"
                break
    if out is not None and result.found:
        stored_automata = [f for f in result.found if f.stored]
        out.write_text(spec_text(game, [f.claim for f in result.found],
                                 {AUTOMATON_NAME: automaton_file(out)} if stored_automata else None,
                                 stored_automata[0].numeration if stored_automata else "msd_2"))
        for f in stored_automata:
            out.with_name(automaton_file(out)).write_text(f.stored + "\n")
    result.seconds = time.perf_counter() - started
    return result
