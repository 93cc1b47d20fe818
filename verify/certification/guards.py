"""Guarded allocations: out-of-bounds accesses fail certification deterministically.

Installed around one ``spec.execution.run`` call (``impls.buffers.using``), ``GuardedAllocator``
places every input, output and scratch buffer a wrapper asks for in the middle of a
larger allocation whose guard zones (before and after the tensor's storage) hold a
sentinel bit pattern: a NaN with a payload for floats, an unlikely value for integers.
Outputs and scratch buffers start filled with the same poison, so an element the kernel
never writes is NaN. After the launch, ``violations`` lists, one line each, every
tensor whose guard zones changed ("output y: 3 elements written past the end") and every
input the kernel overwrote. An out-of-bounds read inside a guard zone reads poison,
which shows up as NaN (or an absurd integer) in the output and fails the comparison.

Under Triton's interpreter ``watching`` also sees every address a kernel loads, stores
or updates atomically: a read or atomic update that lands in a guard zone is a violation
("input q: 32 elements read past the end") whether or not the value read ever reaches
an output and whether or not the update changes the sentinel (an atomic add of 0). Masked
lanes are not accesses. On a GPU only the sentinels and the poison speak.

Not covered: accesses farther than the guard zone (``guard_elements`` each side, at
least the tensor's own size), which may still corrupt other memory — the certifier runs
kernels in a child process so that a crash becomes a failing certificate; an
out-of-bounds read of an int8 input, whose poison (−91) is a plausible value; bool
tensors (allocated unguarded).
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

import numpy as np
import torch

GUARD_MIN = 4096
# (integer view, sentinel bits): quiet NaNs with a payload no arithmetic produces.
_FLOAT_POISON = {
    torch.float64: (torch.int64, 0x7FF8A5A5A5A5A5A5),
    torch.float32: (torch.int32, 0x7FC5A5A5),
    torch.float16: (torch.int16, 0x7E5A),
    torch.bfloat16: (torch.int16, 0x7FE5),
}
_INT_POISON = {
    torch.int64: -0x5A5A5A5A5A5A5A5B,
    torch.int32: -0x5A5A5A5B,
    torch.int16: -0x5A5B,
    torch.int8: -0x5B,
    torch.uint8: 0xA5,
}


def guard_elements(numel: int) -> int:
    return max(GUARD_MIN, numel)


@dataclass
class _Guarded:
    kind: str                    # "input" or "output"
    name: str
    buffer: torch.Tensor         # the whole allocation
    start: int                   # first element of the tensor in ``buffer``
    numel: int
    original: torch.Tensor | None  # an input's bits as placed, to see overwrites
    touched: dict = field(default_factory=dict)  # (verb, side) -> elements, from ``watching``

    def zones(self) -> tuple[int, int, int, int]:
        """Byte addresses: allocation start, tensor start, tensor end, allocation end."""
        size = self.buffer.element_size()
        base = self.buffer.data_ptr()
        return (base, base + self.start * size, base + (self.start + self.numel) * size,
                base + self.buffer.numel() * size)


def _bits(t: torch.Tensor) -> torch.Tensor:
    as_int = _FLOAT_POISON.get(t.dtype)
    return t.view(as_int[0]) if as_int else t


def _sentinel(dtype: torch.dtype) -> int:
    if dtype in _FLOAT_POISON:
        return _FLOAT_POISON[dtype][1]
    return _INT_POISON[dtype]


def _plural(n: int) -> str:
    return f"{n} element{'s' if n != 1 else ''}"


class GuardedAllocator:
    """An ``impls.buffers.Allocator`` that guards every tensor it hands out."""

    def __init__(self) -> None:
        self.tensors: list[_Guarded] = []

    def _place(self, shape: Sequence[int], dtype: torch.dtype, device, kind: str,
               name: str) -> torch.Tensor | None:
        if dtype not in _FLOAT_POISON and dtype not in _INT_POISON:
            return None
        numel = 1
        for size in shape:
            numel *= int(size)
        guard = guard_elements(numel)
        buffer = torch.empty(guard + numel + guard, dtype=dtype, device=device)
        _bits(buffer).fill_(_sentinel(dtype))
        self.tensors.append(_Guarded(kind, name, buffer, guard, numel, None))
        return buffer[guard:guard + numel].view(tuple(shape))

    def empty(self, shape, dtype, device, name):
        view = self._place(shape, dtype, device, "output", name)
        return view if view is not None else torch.empty(tuple(shape), dtype=dtype,
                                                         device=device)

    def zeros(self, shape, dtype, device, name):
        view = self.empty(shape, dtype, device, name)
        return view.zero_()

    def operand(self, t, name):
        view = self._place(t.shape, t.dtype, t.device, "input", name)
        if view is None:
            return t.contiguous()
        view.copy_(t)
        self.tensors[-1].original = _bits(view).reshape(-1).clone()
        return view

    def violations(self) -> list[str]:
        """One line per tensor whose guard zones changed or input that was written."""
        if any(g.buffer.is_cuda for g in self.tensors):
            torch.cuda.synchronize()
        found = []
        for g in self.tensors:
            bits = _bits(g.buffer)
            poison = _sentinel(g.buffer.dtype)
            before = int((bits[:g.start] != poison).sum())
            after = int((bits[g.start + g.numel:] != poison).sum())
            if before:
                found.append(f"{g.kind} {g.name}: {_plural(before)} written before the start")
            if after:
                found.append(f"{g.kind} {g.name}: {_plural(after)} written past the end")
            if g.original is not None:
                inside = bits[g.start:g.start + g.numel]
                changed = int((inside != g.original).sum())
                if changed:
                    found.append(f"input {g.name}: {_plural(changed)} overwritten")
            found += [f"{g.kind} {g.name}: {_plural(count)} {verb} {side}"
                      for (verb, side), count in g.touched.items()]
        return found

    def _record(self, addresses: Any, verb: str) -> None:
        """Note the addresses among ``addresses`` (a numpy array of byte addresses) that
        fall in a guard zone of a tensor this allocator placed."""
        if addresses.size == 0:
            return
        for g in self.tensors:
            lo, start, end, hi = g.zones()
            before = int(((addresses >= lo) & (addresses < start)).sum())
            after = int(((addresses >= end) & (addresses < hi)).sum())
            for side, count in (("before the start", before), ("past the end", after)):
                if count:
                    key = (verb, side)
                    g.touched[key] = g.touched.get(key, 0) + count


class _Watch:
    """Stands in for the interpreter's native memory module while a kernel runs:
    records guard-zone reads and atomic updates, then does what the native call does.
    Plain stores need no watch: the sentinels they overwrite show them."""

    def __init__(self, native: Any, allocator: GuardedAllocator) -> None:
        self._native = native
        self._allocator = allocator

    def __getattr__(self, name: str) -> Any:
        return getattr(self._native, name)

    def _active(self, ptrs: Any, mask: Any) -> Any:
        ptrs = np.asarray(ptrs)
        return ptrs[np.broadcast_to(np.asarray(mask, dtype=bool), ptrs.shape)]

    def load(self, ptrs, mask, other, dtype):
        self._allocator._record(self._active(ptrs, mask), "read")
        return self._native.load(ptrs, mask, other, dtype)

    def atomic_rmw(self, op, ptrs, value, mask, sem):
        self._allocator._record(self._active(ptrs, mask), "updated")
        return self._native.atomic_rmw(op, ptrs, value, mask, sem)

    def atomic_cas(self, ptrs, cmp, value, sem):
        self._allocator._record(np.asarray(ptrs).reshape(-1), "updated")
        return self._native.atomic_cas(ptrs, cmp, value, sem)


@contextlib.contextmanager
def watching(allocator: GuardedAllocator) -> Iterator[None]:
    """Under Triton's interpreter, record every guard-zone access of ``allocator``'s
    tensors while the block runs; elsewhere, nothing."""
    from impls.spec import backend
    if backend() != "triton-interpreter":
        yield
        return
    from triton.runtime import interpreter
    native = interpreter._interpreter
    interpreter._interpreter = _Watch(native, allocator)
    try:
        yield
    finally:
        interpreter._interpreter = native
