"""Where kernel wrappers get the memory they hand to a kernel.

Every wrapper in impls/ allocates its outputs and scratch buffers with ``empty`` /
``zeros`` and passes each input through ``operand`` (a contiguous tensor in the layout
the kernel indexes). By default these are ``torch.empty``, ``torch.zeros`` and
``Tensor.contiguous``. A caller may install another ``Allocator`` for the duration of a
call with ``using``; the certifier installs one that places every tensor inside a
guarded allocation, so an out-of-bounds access fails certification deterministically.
The kernels themselves (the ``@triton.jit`` functions) know nothing of this.

Not covered: tensors a wrapper creates by other means (views, results of torch ops).
"""
from __future__ import annotations

import contextlib
import contextvars
from typing import Iterator, Protocol, Sequence

import torch


class Allocator(Protocol):
    def empty(self, shape: Sequence[int], dtype: torch.dtype, device, name: str
              ) -> torch.Tensor: ...

    def zeros(self, shape: Sequence[int], dtype: torch.dtype, device, name: str
              ) -> torch.Tensor: ...

    def operand(self, t: torch.Tensor, name: str) -> torch.Tensor: ...


class PlainAllocator:
    """torch's own allocation: what production calls use."""

    def empty(self, shape, dtype, device, name):
        return torch.empty(tuple(shape), dtype=dtype, device=device)

    def zeros(self, shape, dtype, device, name):
        return torch.zeros(tuple(shape), dtype=dtype, device=device)

    def operand(self, t, name):
        return t.contiguous()


_PLAIN = PlainAllocator()
_CURRENT: contextvars.ContextVar[Allocator | None] = contextvars.ContextVar(
    "impls_allocator", default=None)


@contextlib.contextmanager
def using(allocator: Allocator) -> Iterator[Allocator]:
    """Route the wrappers' allocations through ``allocator`` inside the block."""
    token = _CURRENT.set(allocator)
    try:
        yield allocator
    finally:
        _CURRENT.reset(token)


def empty(shape: Sequence[int], dtype: torch.dtype, device, name: str) -> torch.Tensor:
    """An uninitialized buffer the kernel writes (an output or scratch), named for
    messages."""
    return (_CURRENT.get() or _PLAIN).empty(shape, dtype, device, name)


def zeros(shape: Sequence[int], dtype: torch.dtype, device, name: str) -> torch.Tensor:
    """A zero-filled buffer the kernel accumulates into."""
    return (_CURRENT.get() or _PLAIN).zeros(shape, dtype, device, name)


def operand(t: torch.Tensor, name: str) -> torch.Tensor:
    """Input ``t`` as the kernel reads it: contiguous, in its own allocation."""
    return (_CURRENT.get() or _PLAIN).operand(t, name)
