"""Python's floor division for mpmath numbers: ``//``, ``%`` and ``divmod`` on ``mpf``.

mpmath's ``mpf`` has no ``//`` and its ``%`` gives NaN for an infinite divisor, so a
user's ``(a + b) // 2`` could not run in the mpmath interpretation (the oracle, the
searcher, the witness check). ``install()`` gives ``mpf`` the semantics Python's floats
have, computed exactly:

- ``a // b`` is ⌊a/b⌋ of the exact quotient (an mpf holding that integer exactly, not
  rounded to the working precision); ``a % b = a − b·⌊a/b⌋`` exactly, so it has the sign
  of the divisor (or is 0); ``divmod(a, b)`` is the pair;
- a zero divisor raises ``ZeroDivisionError``, as Python does;
- NaN anywhere, or an infinite dividend, gives (NaN, NaN); a finite dividend over an
  infinite divisor gives (0, a) when their signs agree (or a is 0) and (−1, b) when
  they differ, as ``-5.0 // math.inf == -1.0`` and ``-5.0 % math.inf == inf``.

Operands: ``mpf``, ``int`` and ``float`` (each read exactly); anything else is left to
the other operand (``NotImplemented``). ``mpf`` has no signed zero, so ``-0.0`` results
are plain 0. Does not cover ``mpc`` (complex numbers have no floor) or ``mpmath.iv``.
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
from mpmath import libmp

_NAN = mpmath.nan


def _raw(x):
    """x as an exact raw mpf tuple, or None for a type this does not handle."""
    if isinstance(x, mpmath.mpf):
        return x._mpf_
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return libmp.from_int(x)
    if isinstance(x, float):
        return libmp.from_float(x)
    return None


def _make(raw) -> mpmath.mpf:
    return mpmath.mp.make_mpf(raw)


def floor_divmod(a, b):
    """Python's ``divmod`` on two exact raw mpf tuples, as two mpf numbers."""
    if b == libmp.fzero:
        raise ZeroDivisionError("float floor division by zero")
    if libmp.fnan in (a, b) or a in (libmp.finf, libmp.fninf):
        return _NAN, _NAN
    if b in (libmp.finf, libmp.fninf):
        negative_b = b == libmp.fninf
        if a == libmp.fzero or libmp.mpf_sign(a) == (-1 if negative_b else 1):
            return _make(libmp.fzero), _make(a)
        return _make(libmp.from_int(-1)), _make(b)
    q = Fraction(*libmp.to_rational(a)) // Fraction(*libmp.to_rational(b))
    raw_q = libmp.from_int(q)
    rem = libmp.mpf_sub(a, libmp.mpf_mul(b, raw_q, 0), 0)  # prec 0: exact
    return _make(raw_q), _make(rem)


def _binary(pick: int | None, reflected: bool):
    def op(self, other):
        x, y = _raw(self), _raw(other)
        if x is None or y is None:
            return NotImplemented
        pair = floor_divmod(y, x) if reflected else floor_divmod(x, y)
        return pair if pick is None else pair[pick]
    return op


def install() -> None:
    """Give ``mpmath.mpf`` Python's ``//``, ``%`` and ``divmod`` (idempotent)."""
    cls = mpmath.mpf
    if getattr(cls, "_python_floor_division", False):
        return
    cls.__floordiv__ = _binary(0, False)
    cls.__rfloordiv__ = _binary(0, True)
    cls.__mod__ = _binary(1, False)
    cls.__rmod__ = _binary(1, True)
    cls.__divmod__ = _binary(None, False)
    cls.__rdivmod__ = _binary(None, True)
    cls._python_floor_division = True
