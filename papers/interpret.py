"""Run a shared combine (a ``@triton.jit`` function of ``laws/associativity/combines.py``)
under another ``tl``: a counting one, to know the flops a kernel spends per merge from the
very source it runs, or torch's, to evaluate it in float64.

A jit function's ``.fn`` is plain Python; rebinding its globals is the project's way of
giving one source several meanings (DESIGN.md, "one source, many interpretations").
"""
from __future__ import annotations

import types
from typing import Callable

# What counts as a flop: + − × ÷, max/min, exp, log, sqrt. Comparisons, selects
# (tl.where), sign flips and conversions are free: they are not floating-point arithmetic.


def rebind(fn, **names) -> Callable:
    """``fn`` (a jit function or a plain one) with global names replaced."""
    f = getattr(fn, "fn", fn)
    env = dict(f.__globals__)
    env.update(names)
    return types.FunctionType(f.__code__, env, f.__name__, f.__defaults__, f.__closure__)


class _Tally:
    """A value of ``width`` lanes; each arithmetic operation costs its width."""

    __slots__ = ("counter", "width")
    __hash__ = None

    def __init__(self, counter: list, width: int):
        self.counter, self.width = counter, width

    def _with(self, other, cost: bool) -> "_Tally":
        width = max(self.width, getattr(other, "width", 1))
        if cost:
            self.counter[0] += width
        return _Tally(self.counter, width)

    def _arith(self, other):
        return self._with(other, True)

    def _free(self, other):
        return self._with(other, False)

    __add__ = __radd__ = __sub__ = __rsub__ = _arith
    __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _arith
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _free
    __and__ = __rand__ = __or__ = __ror__ = _free

    def __neg__(self):
        return _Tally(self.counter, self.width)


class _CountingTL:
    """The slice of ``triton.language`` the combines use, counting flops."""

    def __init__(self, counter: list):
        self.counter = counter

    def _unary(self, x):
        width = getattr(x, "width", 1)
        self.counter[0] += width
        return _Tally(self.counter, width)

    def _binary(self, a, b):
        width = max(getattr(a, "width", 1), getattr(b, "width", 1))
        self.counter[0] += width
        return _Tally(self.counter, width)

    maximum = minimum = _binary
    exp = log = sqrt = _unary

    def where(self, cond, a, b):
        width = max(getattr(v, "width", 1) for v in (cond, a, b))
        return _Tally(self.counter, width)


def flops_per_call(fn, *widths: int) -> int:
    """Flops of one call of ``fn`` with arguments of the given lane widths (1: a scalar;
    d: a row of d values, as FlashAttention's output accumulator)."""
    counter = [0]
    counted = rebind(fn, tl=_CountingTL(counter))
    counted(*(_Tally(counter, w) for w in widths))
    return counter[0]


class _TorchTL:
    """``tl`` for float64 torch tensors (the combines use maximum, where and exp)."""

    def __init__(self):
        import torch
        self.maximum, self.minimum = torch.maximum, torch.minimum
        self.exp, self.log, self.sqrt = torch.exp, torch.log, torch.sqrt
        self._torch = torch

    def where(self, cond, a, b):
        torch = self._torch
        ref = next((v for v in (a, b, cond) if isinstance(v, torch.Tensor)), None)
        as_t = (lambda v: v if isinstance(v, torch.Tensor)
                else torch.as_tensor(v, dtype=ref.dtype if ref is not None else None))
        return torch.where(as_t(cond), as_t(a), as_t(b))


def in_torch(fn) -> Callable:
    """``fn`` evaluated on torch tensors."""
    return rebind(fn, tl=_TorchTL())
