"""Which way each comparison went in a high-precision replay, and by how much.

A replay at finite precision can take a branch the function would not take over ℝ:
``sqrt(a)·sqrt(a) == a`` is false at 113 bits and at 177 bits alike, although it holds
for every a ≥ 0. The output of such a function (0 against 1) is a "stable gap" to the
oracle's two-precision rule, so the rule must also look at the branches. While
``recording()`` is active, every comparison of mpmath numbers (``==``, ``!=``, ``<``,
``<=``, ``>``, ``>=`` and a truth test) appends its outcome and signed margin
``a − b`` to a log. Two logs of the same evaluation at two precisions *agree* when the
comparisons went the same way and each margin is either exactly 0 at both precisions
(a real tie: inputs, or the same rounding on both sides) or stable between the
precisions (it does not shrink with them, as rounding noise does), unless a value was
*rounded onto* another before it (``rounded()``): a sum that returned one of its
operands although the other was nonzero (1 + e⁻¹⁰⁰⁰⁰ is 1 at any working precision
below ~14400 bits), or a transcendental function whose value landed on an integer at a
point where the exact value is none (tanh(−1424) is −1 at every precision below ~4110
bits, although tanh(x) > −1 for every real x). After such a rounding a tie of 0 at both
precisions is the rounding's, not the function's, and the point decides nothing. Where an mpf was
turned into a Python float during the evaluation (``math.sqrt``, ``float()``), a
margin must also exceed 2⁻⁴⁰ of its operands: a smaller one could be double rounding,
which no precision setting reaches. A point whose logs do not agree decides nothing.

Does not cover: comparisons between Python floats or ints (double arithmetic the
function does on its own), and mpmath's complex numbers.

>>> import mpmath
>>> def f(a):
...     return 1 if mpmath.sqrt(a) * mpmath.sqrt(a) == a else 0
>>> logs = []
>>> for prec in (113, 177):
...     with mpmath.workprec(prec), recording() as log:
...         _ = f(mpmath.mpf(2))
...     logs.append(log)
>>> agree(*logs)
False
"""
from __future__ import annotations

import contextlib
import sys
from typing import Any, Iterator

import mpmath

from verify.engine.interp import is_library_file

MIN_RELATIVE_MARGIN = mpmath.mpf(2) ** -40

_log: list[tuple[Any, Any, Any]] | None = None


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """No logging meanwhile (the margins are computed with comparisons of their own)."""
    global _log
    saved, _log = _log, None
    try:
        yield
    finally:
        _log = saved


def _note(outcome: Any, a: Any, b: Any) -> None:
    """Append (outcome, a − b, max(|a|, |b|)); the margin is None for non-numbers.
    Comparisons inside library code (mpmath's own iterations, which test convergence
    at the working precision) are not the function's branches and are left out."""
    log = _log
    if log is None or is_library_file(sys._getframe(2).f_code.co_filename):
        return
    with paused():
        try:
            x, y = mpmath.mpf(a), mpmath.mpf(b)
            entry = (outcome, x - y, max(abs(x), abs(y)))
        except (TypeError, ValueError):
            entry = (outcome, None, None)
    log.append(entry)


def _recorded(name: str, original):
    def compare(self, other):
        outcome = original(self, other)
        if outcome is not NotImplemented:
            _note(outcome, self, other)
        return outcome
    compare.__name__ = name
    return compare


def _recorded_truth(original):
    def truth(self):
        outcome = original(self)
        _note(outcome, self, 0)
        return outcome
    return truth


_LEAK = "float"  # a log entry: an mpf became a Python float (math.sqrt, float())
_ROUNDED = "rounded"  # a log entry: a value was rounded onto another (see rounded())


def rounded() -> None:
    """Note in the active log that a value was rounded onto another: a later tie of
    margin 0 then decides nothing (see the module docstring)."""
    if _log is not None:
        _log.append((_ROUNDED, None, None))


_ZERO = mpmath.mpf(0)._mpf_


_SPECIAL = (mpmath.libmp.finf, mpmath.libmp.fninf, mpmath.libmp.fnan)


def _absorbed(result: Any, kept: Any, lost: Any) -> bool:
    """Whether a sum or difference returned ``kept`` exactly although the term ``lost``
    is a nonzero finite number (rounded away whole)."""
    try:
        r, k, d = result._mpf_, mpmath.mpf(kept)._mpf_, mpmath.mpf(lost)._mpf_
    except (AttributeError, TypeError, ValueError):
        return False
    return r == k and d != _ZERO and not ({r, k, d} & set(_SPECIAL))


def _recorded_sum(name: str, original):
    """``name`` is one of __add__, __radd__, __sub__, __rsub__: x + y (either order) is
    absorbed when it returns x or y and the other is nonzero; x − y when it returns x
    (y lost) or −y (x lost)."""
    def sum_(self, other):
        outcome = original(self, other)
        if _log is None or outcome is NotImplemented or not isinstance(outcome, mpmath.mpf):
            return outcome
        with paused():
            if name in ("__add__", "__radd__"):
                lost = _absorbed(outcome, self, other) or _absorbed(outcome, other, self)
            elif name == "__sub__":  # self − other
                lost = _absorbed(outcome, self, other) or _absorbed(-outcome, other, self)
            else:  # other − self
                lost = _absorbed(outcome, other, self) or _absorbed(-outcome, self, other)
        if lost and not is_library_file(sys._getframe(1).f_code.co_filename):
            _log.append((_ROUNDED, None, None))
        return outcome
    sum_.__name__ = name
    return sum_


def _recorded_float(original):
    def to_float(self):
        if _log is not None:
            _log.append((_LEAK, None, None))
        return original(self)
    return to_float


def install() -> None:
    """Make ``mpmath.mpf`` comparisons report to an active ``recording()`` (idempotent;
    they behave as before when nothing records)."""
    cls = mpmath.mpf
    if getattr(cls, "_records_comparisons", False):
        return
    for name in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
        setattr(cls, name, _recorded(name, getattr(cls, name)))
    cls.__bool__ = _recorded_truth(cls.__bool__)
    cls.__float__ = _recorded_float(cls.__float__)
    for name in ("__add__", "__radd__", "__sub__", "__rsub__"):
        setattr(cls, name, _recorded_sum(name, getattr(cls, name)))
    cls._records_comparisons = True


@contextlib.contextmanager
def recording() -> Iterator[list]:
    """Log every mpf comparison made inside the block: (outcome, a − b, scale)."""
    global _log
    install()
    previous, _log = _log, []
    try:
        yield _log
    finally:
        _log = previous


def agree(first: list, second: list) -> bool:
    """Whether two logs of one evaluation at two precisions took every branch the same
    way for a reason that is not rounding (see the module docstring)."""
    with paused():
        return _agree(first, second)


def _marked(log: list) -> list:
    """The log's comparisons, each with whether a value was rounded onto another before
    it (the markers themselves may come at one precision and not at the other)."""
    out, rounding = [], False
    for entry in log:
        if entry[0] == _ROUNDED:
            rounding = True
        else:
            out.append((entry, rounding))
    return out


def _agree(first: list, second: list) -> bool:
    first, second = _marked(first), _marked(second)
    if len(first) != len(second):
        return False
    # Only where a double entered the evaluation can a margin be double rounding that
    # no precision reaches; elsewhere a tiny margin that is stable is real (1e308 + 0.5).
    doubles = any(entry[0] == _LEAK for entry, _ in first + second)
    for ((o1, d1, _), r1), ((o2, d2, s2), r2) in zip(first, second):
        rounding = r1 or r2  # a value was rounded onto another earlier on
        if o1 != o2:
            return False
        if d1 is None or d2 is None or not (mpmath.isfinite(d1) and mpmath.isfinite(d2)):
            continue  # not numbers, or an infinity or NaN: no rounding decides it
        if d1 == 0 and d2 == 0:
            if rounding:
                return False  # the tie may be the rounding's (tanh(−1424) > −1)
            continue
        if abs(d1 - d2) > abs(d2) / 100 or (doubles and abs(d2) <= s2 * MIN_RELATIVE_MARGIN):
            return False
    return True
