"""Exact replays that notice when a float slips in.

The exact interpretation runs a function on ``fractions.Fraction`` values. Python lets
a Fraction turn into a float without a word: ``math.sqrt(q)`` and ``float(q)`` convert
it, ``q ** Fraction(1, 2)`` and ``q + 0.5`` return floats. A float that only reaches the
output is visible there, but one that reaches a comparison decides a branch by double
rounding (``sqrt(a)·sqrt(a) == a`` is false in floats) and the function may still
return an int, which would pass for an exact answer. Inside ``rational_only()`` every
such conversion raises ``Inexact`` instead, so an exact replay either stays rational
from start to end or gives up.

Does not cover: floats the function makes from Python ints (``i / 3`` on a loop
counter), which never pass through a Fraction.

>>> import math
>>> from fractions import Fraction
>>> with rational_only():  # doctest: +IGNORE_EXCEPTION_DETAIL
...     math.sqrt(Fraction(4))
Traceback (most recent call last):
...
verify.engine.rational_only.Inexact: a Fraction became a float (sqrt, float(), a float operand)
"""
from __future__ import annotations

import contextlib
import numbers
from fractions import Fraction
from typing import Iterator

_depth = 0
_BINARY = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
           "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__",
           "__rmod__", "__divmod__", "__rdivmod__", "__pow__", "__rpow__")


class Inexact(ArithmeticError):
    """A Fraction turned into a float inside an exact replay."""


def _refuse() -> None:
    raise Inexact("a Fraction became a float (sqrt, float(), a float operand)")


def _guarded(original):
    def op(self, *args):
        out = original(self, *args)
        if _depth and _inexact(out):
            _refuse()
        return out
    op.__name__ = original.__name__
    return op


def _inexact(value) -> bool:
    if isinstance(value, tuple):  # divmod
        return any(_inexact(v) for v in value)
    return isinstance(value, (float, complex)) or (
        isinstance(value, numbers.Number) and not isinstance(value, numbers.Rational))


def _guarded_float(original):
    def to_float(self):
        if _depth:
            _refuse()
        return original(self)
    return to_float


def install() -> None:
    """Patch ``Fraction`` once; outside ``rational_only()`` it behaves as before."""
    if getattr(Fraction, "_guards_exactness", False):
        return
    for name in _BINARY:
        setattr(Fraction, name, _guarded(getattr(Fraction, name)))
    Fraction.__float__ = _guarded_float(Fraction.__float__)
    Fraction._guards_exactness = True


@contextlib.contextmanager
def rational_only() -> Iterator[None]:
    """Inside the block a Fraction that would become a float raises ``Inexact``."""
    global _depth
    install()
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
