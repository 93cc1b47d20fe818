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
precisions (it does not shrink with them, as rounding noise does). Where an mpf was
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
def _paused() -> Iterator[None]:
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
    with _paused():
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
    with _paused():
        return _agree(first, second)


def _agree(first: list, second: list) -> bool:
    if len(first) != len(second):
        return False
    # Only where a double entered the evaluation can a margin be double rounding that
    # no precision reaches; elsewhere a tiny margin that is stable is real (1e308 + 0.5).
    doubles = any(entry[0] == _LEAK for entry in first + second)
    for (o1, d1, _), (o2, d2, s2) in zip(first, second):
        if o1 != o2:
            return False
        if d1 is None or d2 is None or not (mpmath.isfinite(d1) and mpmath.isfinite(d2)):
            continue  # not numbers, or an infinity or NaN: no rounding decides it
        if d1 == 0 and d2 == 0:
            continue
        if abs(d1 - d2) > abs(d2) / 100 or (doubles and abs(d2) <= s2 * MIN_RELATIVE_MARGIN):
            return False
    return True
