"""The limits of the resource guard and the cost model it estimates with: what one position, option, row or
window instance costs in memory and time, the memory this process may still use, the limit on positions
(``nimjos check --max-positions`` when given, else sized to this machine and never above the engine's
default), and the longest check the guard lets start.

>>> limit, source = position_limit(BYTES_PER_POSITION)
>>> 1_000 <= limit and source in ("--max-positions", "sized to this machine")
True
"""
from __future__ import annotations

import resource
from pathlib import Path

import nimjos.games.engine as engine

#: bytes one position costs in the reference engine (adjacency, Grundy table, graph node)
BYTES_PER_POSITION = 320
#: bytes one option (an edge of the game graph) costs in the reference engine
BYTES_PER_EDGE = 100
#: bytes the exhaustive checker keeps per window instance of a game claim (its row)
BYTES_PER_ROW = 250
#: seconds per window instance, per position and per edge (order of magnitude, for the message)
SECONDS_PER_INSTANCE = 2e-5
SECONDS_PER_POSITION = 1e-5
SECONDS_PER_EDGE = 1e-6
#: the longest check the guard lets start (a window that only costs time, not memory, is limited by this)
MAX_SECONDS = 24 * 3600


def available_bytes() -> int:
    """Memory this process may still use: the system's available memory, capped by an address-space limit.

    >>> available_bytes() > 0
    True
    """
    avail = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                avail = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            room = max(0, soft - _mapped_bytes())
            avail = room if avail is None else min(avail, room)
    except (ImportError, OSError, ValueError):
        pass
    return avail if avail is not None else 4 << 30


def _mapped_bytes() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def machine_max_positions(bytes_per_position: int = BYTES_PER_POSITION) -> int:
    """The default limit on positions: half the available memory over the cost of one position.

    >>> machine_max_positions(4) > machine_max_positions(400) > 0
    True
    """
    return max(1_000, available_bytes() // 2 // max(1, bytes_per_position))


def position_limit(bytes_per_position: int = BYTES_PER_POSITION) -> tuple[int, str]:
    """(limit, where it comes from): `--max-positions` when given, else sized to the machine and never above
    the engine's default.

    >>> limit, source = position_limit(); limit > 0 and source in ("--max-positions", "sized to this machine")
    True
    """
    current = engine.active_engine().max_positions
    if current != engine.MAX_POSITIONS:
        return current, "--max-positions"
    return min(engine.MAX_POSITIONS, machine_max_positions(bytes_per_position)), "sized to this machine"
