"""The two-level I/O model: a slow memory of unbounded size and a fast memory of M words.

A schedule is an explicit block loop over a ``TwoLevelMemory``: it ``load``s words from
slow memory into named fast-memory slots, ``alloc``s on-chip scratch (accumulators,
score tiles), ``store``s results and ``update``s in place (an atomic add is a read and
a write). Every call counts words of slow-memory traffic per tensor; the fast memory's
capacity is enforced: a schedule whose resident slots exceed M raises
``FastMemoryOverflow``, so a block size that does not fit cannot be counted by mistake.

``program()`` brackets one independent program (one Triton program, one thread block):
it starts with an empty fast memory and leaves nothing behind, so nothing is reused
across programs — data that a GPU's L2 cache would serve again counts as slow-memory
traffic here. ``repeat(k)`` multiplies the counts of k identical programs, so large
grids cost one loop iteration.

Words are elements; bytes follow from each tensor's element size.
"""
from __future__ import annotations

from collections import defaultdict
from contextlib import contextmanager
from typing import Mapping


class FastMemoryOverflow(ValueError):
    """A schedule asked for more fast memory than M words."""


class TwoLevelMemory:
    def __init__(self, M: int, element_bytes: Mapping[str, int] | None = None,
                 default_bytes: int = 4):
        if M <= 0:
            raise ValueError(f"fast memory must hold at least one word, got M = {M}")
        self.M = int(M)
        self.element_bytes = dict(element_bytes or {})
        self.default_bytes = default_bytes
        self.reads: dict[str, int] = defaultdict(int)
        self.writes: dict[str, int] = defaultdict(int)
        self.flops = 0
        self.peak = 0                      # most fast-memory words resident at once
        self._slots: dict[str, int] = {}   # slot -> words resident
        self.scratch: dict[str, int] = {}  # slow-memory arrays a schedule keeps besides
                                           # its inputs and outputs (S and P, ℓ and m)
        self._mult = 1

    # ----------------------------------------------------------------- fast memory
    @property
    def resident(self) -> int:
        return sum(self._slots.values())

    def alloc(self, slot: str, words: int) -> None:
        """Hold ``words`` words of on-chip data in ``slot`` (replacing what it held)."""
        self._slots.pop(slot, None)
        if self.resident + words > self.M:
            raise FastMemoryOverflow(
                f"slot {slot!r} needs {words:,} words with {self.resident:,} resident "
                f"({', '.join(f'{k} {v:,}' for k, v in self._slots.items()) or 'nothing'}): "
                f"{self.resident + words:,} > M = {self.M:,}")
        self._slots[slot] = int(words)
        self.peak = max(self.peak, self.resident)

    def free(self, *slots: str) -> None:
        for slot in slots:
            self._slots.pop(slot, None)

    # ----------------------------------------------------------------- traffic
    def load(self, tensor: str, words: int, *, slot: str | None = None,
             footprint: int | None = None) -> None:
        """Read ``words`` words of ``tensor`` into ``slot`` (default: the tensor's name),
        which occupies ``footprint`` words (default ``words``: a padded tile may occupy
        more than it reads)."""
        self.alloc(slot or tensor, words if footprint is None else footprint)
        self.reads[tensor] += int(words) * self._mult

    def store(self, tensor: str, words: int) -> None:
        """Write ``words`` words of ``tensor`` from fast memory to slow memory."""
        self.writes[tensor] += int(words) * self._mult

    def update(self, tensor: str, words: int) -> None:
        """Read-modify-write of ``words`` words in slow memory (an atomic add)."""
        self.reads[tensor] += int(words) * self._mult
        self.writes[tensor] += int(words) * self._mult

    def keep(self, tensor: str, words: int) -> None:
        """Declare an intermediate array of ``words`` words living in slow memory."""
        self.scratch[tensor] = int(words)

    def flop(self, n: int) -> None:
        self.flops += int(n) * self._mult

    # ----------------------------------------------------------------- structure
    @contextmanager
    def program(self):
        """One independent program: it starts and ends with an empty fast memory."""
        if self._slots:
            raise RuntimeError(f"a program starts with resident slots {sorted(self._slots)}")
        try:
            yield self
        finally:
            self._slots.clear()

    @contextmanager
    def repeat(self, times: int):
        """Counts recorded inside stand for ``times`` identical repetitions."""
        saved = self._mult
        self._mult = saved * int(times)
        try:
            yield self
        finally:
            self._mult = saved

    # ----------------------------------------------------------------- totals
    def element_size(self, tensor: str) -> int:
        return self.element_bytes.get(tensor, self.default_bytes)

    @property
    def words_read(self) -> int:
        return sum(self.reads.values())

    @property
    def words_written(self) -> int:
        return sum(self.writes.values())

    @property
    def words(self) -> int:
        return self.words_read + self.words_written

    @property
    def bytes(self) -> int:
        return (sum(w * self.element_size(t) for t, w in self.reads.items())
                + sum(w * self.element_size(t) for t, w in self.writes.items()))

    def table(self) -> str:
        """Per-tensor words read and written, one line."""
        names = sorted(set(self.reads) | set(self.writes))
        return ", ".join(f"{t} r{self.reads.get(t, 0):,}/w{self.writes.get(t, 0):,}"
                         for t in names)


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def blocks(n: int, size: int):
    """(start, length) of the consecutive blocks of ``size`` covering range(n)."""
    for start in range(0, n, size):
        yield start, min(size, n - start)
