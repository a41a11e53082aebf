"""Check many claims at once: one claim per task on a local process pool, results as they finish.

Claims are independent (each method draws its own seed from the claim, see checkers/sample/driver.py); each
process runs a fixed sequence of them (balanced by the seconds of a reference run, :func:`assign`), so that a
run gives the same verdicts on a quiet and on a loaded machine; only the order in which they finish varies, and the caller puts them back in claim order for printing.
Each worker process loads a spec file once and keeps it.

A process that dies (a compiled kernel that aborts, a signal) breaks its pool: the claims of that pool that got
no result are run again, each alone in a process of its own, and a claim that ends its process again gets the
verdict ``inconclusive`` with the reason ("the engine crashed: the claim's process ended by signal SIGABRT ...");
every other claim keeps its result.

>>> from nimjos.spec.loader import load_spec
>>> from checkers.run import RunOptions
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> [(i, r.final.verdict) for i, c, r in run_claims(spec.claims[:1], RunOptions(methods=("exhaustive",)), jobs=1)]
[(0, 'checked')]
"""
from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import statistics
import signal
import threading
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, ThreadPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Callable, Generator, Iterator

from nimjos.lang.errors import SpecError
from nimjos.games.engine import set_max_positions
from nimjos.spec.loader import Claim, load_spec
from nimjos.verdict import HasId, Verdict, phrases
from nimjos.words import PhraseKind
from checkers import ClaimResult, run_claim

#: the file beside the specs that holds the seconds a reference run spent on each claim (for :func:`assign`)
COSTS_FILE = "claim-costs.json"
#: the hash seed of the worker processes (the same on every run: str hashes order sets and dicts)
WORKER_HASH_SEED = "0"
#: spec files a worker process has loaded (path -> Spec)
_SPECS: dict[str, Any] = {}


def default_jobs(n_claims: int) -> int:
    """Processes for `n_claims` claims: one per core (os.sched_getaffinity where it exists), at most one per claim.

    >>> default_jobs(1)
    1
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, n_claims))


def _init_worker(max_positions: int, parent: int) -> None:
    # Ctrl-C reaches the whole process group: the parent alone decides what an interrupt does
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()
    if max_positions:
        set_max_positions(max_positions)


def _exit_with(parent: int, every: float = 0.5) -> None:
    """End this worker soon after the parent process is gone (killed, or interrupted and exited), instead of
    finishing a claim nobody will record."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(1)


def _run_one(path: str, claim_id: str, opts: Any) -> tuple[str, Any, Any]:
    """Check one claim of a spec file inside a worker: ("ok", verdicts, (repairs, their seconds)), or ("spec-error",
    (message, location fields), None) since a SpecError's location does not survive pickling."""
    try:
        spec = _SPECS.get(path)
        if spec is None:
            spec = _SPECS[path] = load_spec(path)
        claim = next(c for c in spec.claims if c.id == claim_id)
        result = run_claim(claim, opts)
    except SpecError as exc:
        exc.located(file=path, item=f"claim {claim_id!r}")
        fields = {k: getattr(exc, k) for k in ("file", "item", "field", "line", "hint")}
        return "spec-error", (exc.message, fields), None
    except Exception as exc:  # noqa: BLE001  (a bug met by one claim must not take the others' verdicts down)
        return "failed", internal_error(exc), None
    return "ok", result.verdicts, (result.repairs, result.repair_seconds, result.complete)


def how_it_ended(exitcode: int | None) -> str:
    """How a process ended, in words, from its exit code (negative: the signal that ended it).

    >>> how_it_ended(-6), how_it_ended(1)
    ('signal SIGABRT (6)', 'exit status 1')
    """
    if exitcode is None:
        return "no exit status"
    if exitcode < 0:
        try:
            return f"signal {signal.Signals(-exitcode).name} ({-exitcode})"
        except ValueError:
            return f"signal {-exitcode}"
    return f"exit status {exitcode}"


def internal_error(exc: BaseException) -> str:
    """An exception that is a bug of nimjos, in words: its type, message and the line that raised it.

    >>> try:
    ...     {}["k"]
    ... except KeyError as exc:
    ...     internal_error(exc)[:16]
    "KeyError: 'k' (a"
    """
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"[:500]


def failed(claim: HasId, error: str) -> ClaimResult:
    """The result of a claim whose check raised an internal error (a bug of nimjos, not of the spec):
    ``inconclusive``, with the error; the other claims keep their verdicts.

    >>> r = failed(type("C", (), {"id": "c"})(), "ValueError: x (at a.py:3)"); r.final.scope[:48], r.complete
    ('the check failed with an internal error: ValueEr', False)
    """
    why = phrases((PhraseKind.REASON, f"the check failed with an internal error: {error}"),
                  (PhraseKind.REASON, "a bug of nimjos, please report it"))
    return ClaimResult(claim, [Verdict(claim.id, "inconclusive", "exhaustive", why)], complete=False)


def crashed(claim: HasId, how: str) -> ClaimResult:
    """The result of a claim whose process died, in the pool and again alone: ``inconclusive``, with the reason.

    >>> v = crashed(type("C", (), {"id": "c"})(), "signal SIGABRT (6)").final
    >>> v.verdict, v.scope[:67]
    ('inconclusive', "the engine crashed: the claim's process ended by signal SIGABRT (6)")
    """
    why = phrases((PhraseKind.REASON, f"the engine crashed: the claim's process ended by {how}, in the pool and again "
                                      "when run alone"))
    return ClaimResult(claim, [Verdict(claim.id, "inconclusive", "exhaustive", why)], complete=False)


@contextlib.contextmanager
def _worker_hash_seed() -> Iterator[None]:
    """PYTHONHASHSEED is :data:`WORKER_HASH_SEED` while processes are started (a spawned process reads it then)."""
    seed = os.environ.get("PYTHONHASHSEED")
    os.environ["PYTHONHASHSEED"] = WORKER_HASH_SEED
    try:
        yield
    finally:
        if seed is None:
            os.environ.pop("PYTHONHASHSEED", None)
        else:
            os.environ["PYTHONHASHSEED"] = seed


def _alone_main(conn: Any, worker: Callable, path: str, claim_id: str, opts: Any, max_positions: int,
                parent: int) -> None:
    """The body of a process that checks one claim alone: the worker's answer (or the exception it raised) goes
    back through `conn`."""
    _init_worker(max_positions, parent)
    try:
        answer = worker(path, claim_id, opts)
    except Exception as exc:  # noqa: BLE001 - given back to the parent, which raises it as the pool would
        answer = ("raised", exc, None)
    conn.send(answer)
    conn.close()


def _start_alone(ctx: Any, worker: Callable, claim: Claim, opts: Any, max_positions: int) -> tuple[Any, Any]:
    """Start a process that checks `claim` alone; (process, the end of the pipe its answer comes through)."""
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_alone_main, args=(send, worker, str(claim.spec.path), claim.id, opts, max_positions,
                                                 os.getpid()))
    with _worker_hash_seed():
        proc.start()
    send.close()
    return proc, receive


def _finish_alone(proc: Any, receive: Any) -> tuple[str, Any, Any]:
    """Wait for a process started by :func:`_start_alone`: its answer, or ("crashed", how it ended, None) when it
    ended without one."""
    try:
        answer = receive.recv()
    except (EOFError, OSError):
        answer = None
    finally:
        receive.close()
    proc.join()
    return answer if answer is not None else ("crashed", how_it_ended(proc.exitcode), None)


def assign(costs: list[float], jobs: int) -> list[list[int]]:
    """The claims (by index) each of `jobs` processes runs, in claim order: the longest first to the process
    with the least work so far (costs: the seconds a reference run spent on each claim). The assignment depends
    only on the costs given, never on the machine's load.

    >>> assign([5.0, 1.0, 1.0, 3.0, 2.0], 2)
    [[0, 1], [2, 3, 4]]
    """
    queues: list[list[int]] = [[] for _ in range(jobs)]
    loads = [0.0] * jobs
    for i in sorted(range(len(costs)), key=lambda i: (-costs[i], i)):
        j = loads.index(min(loads))
        queues[j].append(i)
        loads[j] += costs[i]
    return [sorted(q) for q in queues]


def load_costs(folders: list[Path]) -> dict[tuple[str, str], float]:
    """The seconds a reference run spent on each claim, (spec file name, claim id) -> seconds, from the
    :data:`COSTS_FILE` of the given folders (written by ``scripts/claim_costs.py``; none: an empty dict).

    >>> load_costs([Path("no-such-folder")])
    {}
    """
    out: dict[tuple[str, str], float] = {}
    for folder in folders:
        path = folder / COSTS_FILE
        try:
            table = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        for key, seconds in table.items() if isinstance(table, dict) else ():
            name, _, claim_id = str(key).partition(":")
            if claim_id and isinstance(seconds, (int, float)):
                out[(name, claim_id)] = float(seconds)
    return out


def run_claims(claims: list, opts: Any, jobs: int, max_positions: int = 0,
               costs: dict[tuple[str, str], float] | None = None,
               worker: Callable[[str, str, Any], tuple] = _run_one) -> Generator[tuple[int, Any, Any], None, None]:
    """Yield (index, claim, ClaimResult or SpecError) for each claim, in the order they finish.

    With `jobs` <= 1 the claims run here, one after another (in order); otherwise on `jobs` spawned
    processes. Leaving the loop early (an interrupt) cancels the claims not yet started. A process that dies
    takes only its own claim down: the claims of its pool that got no result run again, each alone in a new
    process, and one that dies again gets :func:`crashed` (``inconclusive``, the reason). `worker` is the
    function a process runs for one claim, ``worker(spec path, claim id, options)`` (a module-level function, as
    processes are spawned): :func:`_run_one` unless a test gives one that makes its process die.
    """
    if jobs <= 1 or len(claims) <= 1:
        for i, claim in enumerate(claims):
            try:
                yield i, claim, run_claim(claim, opts)
            except SpecError as exc:
                exc.located(file=str(claim.spec.path), item=claim.label)
                yield i, claim, exc
            except Exception as exc:  # noqa: BLE001  (as in a worker: the other claims keep their verdicts)
                yield i, claim, failed(claim, internal_error(exc))
        return
    ctx = multiprocessing.get_context("spawn")
    # Each process runs a fixed sequence of claims (every jobs-th, in order), started with a fixed hash seed: Z3's
    # search in one process depends on what that process did before (the claims it checked earlier), so a pool
    # that hands the next claim to whichever process is free could give other verdicts on a loaded machine.
    # The sequences are balanced by the seconds of a reference run (COSTS_FILE beside the specs; a claim not in it
    # counts as the median), so that they end at about the same time.
    pools = [ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=_init_worker,
                                 initargs=(max_positions, os.getpid())) for _ in range(jobs)]
    known = [costs[k] for k in ((Path(c.spec.path).name, c.id) for c in claims) if costs and k in costs]
    typical = statistics.median(known) if known else 1.0
    queues = assign([(costs or {}).get((Path(c.spec.path).name, c.id), typical) for c in claims], jobs)
    left = [len(q) for q in queues]             # per pool, the claims without an answer yet
    orphans: list[int] = []                     # claims whose pool broke before they had an answer
    alone: list[Any] = []                       # the processes of claims run alone
    free = 0                                    # processes that may start: pools done (or broken), alone runs done
    waiters = ThreadPoolExecutor(max_workers=jobs)
    pending: dict[Future, tuple[int, int | None]] = {}   # future -> (claim index, its pool; None: run alone)
    try:
        with _worker_hash_seed():
            for j, queue in enumerate(queues):
                for i in queue:
                    pending[pools[j].submit(worker, str(claims[i].spec.path), claims[i].id, opts)] = (i, j)
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in sorted(done, key=lambda f: pending[f][0]):
                i, its_pool = pending.pop(fut)
                claim = claims[i]
                if its_pool is None:
                    free += 1
                else:
                    left[its_pool] -= 1
                    if left[its_pool] == 0:
                        free += 1       # the pool's process is idle (or dead): one alone run may take its place
                try:
                    status, payload, repairs = fut.result()
                except BrokenProcessPool:
                    orphans.append(i)
                    continue
                if status == "ok":
                    yield i, claim, ClaimResult(claim, payload, *repairs)
                elif status == "crashed":
                    yield i, claim, crashed(claim, payload)
                elif status == "failed":
                    yield i, claim, failed(claim, payload)
                elif status == "raised":
                    raise payload
                else:
                    message, fields = payload
                    yield i, claim, SpecError(message, **fields)
            orphans.sort()
            while orphans and free:
                i = orphans.pop(0)
                free -= 1
                proc, receive = _start_alone(ctx, worker, claims[i], opts, max_positions)
                alone.append(proc)
                pending[waiters.submit(_finish_alone, proc, receive)] = (i, None)
    finally:
        # Every claim answered: wait for the idle processes to end. Python 3.11's exit handler writes to a pool's
        # wake-up pipe, which the pool's own thread may be closing at that moment after a shutdown that did not
        # wait ("OSError: Bad file descriptor" on stderr at exit). Left early (an interrupt): do not wait.
        for pool in pools:
            pool.shutdown(wait=not pending, cancel_futures=True)
        for proc in alone:
            if proc.is_alive():
                proc.terminate()
        waiters.shutdown(wait=False, cancel_futures=True)
