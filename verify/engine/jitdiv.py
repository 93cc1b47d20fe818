"""0/0 inside a ``@triton.jit`` function is NaN in the mpmath reading, as on the device.

mpmath raises ``ZeroDivisionError`` for any division by zero, which is Python's rule for
Python's ``/``. Inside a ``@triton.jit`` function the device computes IEEE values
instead; the z3 interpretation models 0/0 there as NaN (``verify.engine.nan``), so the
oracle that replays its counterexamples must give NaN too. ``install()`` wraps
``mpf``'s true division: a zero-by-zero division whose caller is code of a rebound
``@triton.jit`` function (``interp.JIT_CODES``) gives ``mpmath.nan``.

Not covered: x/0 with x ≠ 0 (±∞, whose sign depends on the sign of a zero that ``mpf``
does not have) still raises, and the raise is read as before (``decide.jit_raise``);
Python's own numbers and ``Fraction`` are untouched.
"""
from __future__ import annotations

import sys

import mpmath

from verify.engine.interp import JIT_CODES


def _zero(x) -> bool:
    return (isinstance(x, mpmath.mpf) or (isinstance(x, (int, float))
                                          and not isinstance(x, bool))) and x == 0


def _wrap(original, reflected: bool):
    def divide(self, other):
        try:
            return original(self, other)
        except ZeroDivisionError:
            num = other if reflected else self
            if _zero(num) and sys._getframe(1).f_code in JIT_CODES:
                return mpmath.nan
            raise
    divide.__name__ = original.__name__
    return divide


def install() -> None:
    """Give ``mpmath.mpf`` the device's 0/0 inside ``@triton.jit`` code (idempotent)."""
    cls = mpmath.mpf
    if getattr(cls, "_jit_zero_by_zero", False):
        return
    cls.__truediv__ = _wrap(cls.__truediv__, False)
    cls.__rtruediv__ = _wrap(cls.__rtruediv__, True)
    cls._jit_zero_by_zero = True
