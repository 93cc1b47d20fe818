"""Python floats that carry a running bound on their rounding error.

``Tracked`` is a ``float`` subclass: code that receives one computes exactly what it
computes on a Python float, while each ``+ − × ÷ **`` on a tracked value adds the bound of
its own rounding (exactly: the operands are doubles; ``u·|result|`` for a power) to
the propagated bounds of its operands
(first order). Below the smallest normal 2⁻¹⁰²² rounding is absolute (gradual underflow,
a flush to 0: up to 2⁻¹⁰⁷⁵ each), and so is the bound's own arithmetic there: there an
operation's own error is rounded up to a double and its bound gets 2·2⁻¹⁰⁷⁴ more, never
0 unless the operation and its operands are exact. Inside ``watching(literals)``:

- a comparison (or ``bool``, ``int``, ``floor``…) whose outcome could change within the
  operands' bounds is noted *uncertain*;
- a finite operation that overflows is noted;
- an operand that is a float the tracked arithmetic did not make and that is not a
  constant of the code (``literals``: a ``math``/``numpy`` result) makes the run
  *opaque*: the bound no longer covers everything.

Does not cover: values computed by library functions (their rounding, and what the
library did with a tracked argument, is outside the bound; the run is then opaque), and
a ``Fraction`` operand on the left of a tracked one (Python then computes in plain
floats).
"""
from __future__ import annotations

import contextlib
import math
import types
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterator

from verify.engine.faithful import closure_values, code_names

U = 2.0 ** -53


@dataclass
class Watch:
    opaque: bool = False
    uncertain: bool = False
    overflow: bool = False
    literals: set = field(default_factory=set)


_WATCH: list[Watch] = []


def _note(what: str) -> None:
    if _WATCH:
        setattr(_WATCH[-1], what, True)


def _operand(x: Any) -> tuple[float, float] | None:
    """(value, error bound) of an operand, or None for what is not a real number."""
    if isinstance(x, Tracked):
        return float.__float__(x), x.err
    if isinstance(x, bool):
        return float(x), 0.0
    if isinstance(x, int):
        try:
            v = float(x)
        except OverflowError:
            return None
        return v, 0.0 if v == x else U * abs(v)
    if isinstance(x, float):
        v = float.__float__(x)
        if not (_WATCH and (v in _WATCH[-1].literals or v != v)):
            _note("opaque")  # a value computed outside the tracked arithmetic
        return v, 0.0
    if isinstance(x, Fraction):
        v = float(x)
        return v, 0.0 if Fraction(v) == x else max(U * abs(v), TINY)
    return None


def _local(op: Callable[[Any, Any], Any], a: float, b: float, r: float) -> float:
    """This operation's own rounding error, exactly (its operands are doubles); below
    the smallest normal as the double at or above it, so that the error of a result
    rounded in the subnormal range or flushed to 0 (up to 2⁻¹⁰⁷⁵) is never 0."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(r)):
        return 0.0 if r == op(a, b) else math.inf
    try:
        exact = op(Fraction(a), Fraction(b))
    except ZeroDivisionError:
        return 0.0
    if exact == r:
        return 0.0
    gap = abs(exact - Fraction(r))
    out = float(gap) * (1 + U)
    if out >= MIN_NORMAL or Fraction(out) >= gap:
        return out
    return math.nextafter(out, math.inf)


def _underflow(r: float, e: float, ea: float, eb: float) -> float:
    """The bound ``e`` of a result, with room for the bound's own arithmetic where the
    result or the bound is below the smallest normal 2⁻¹⁰²²: there each product or
    quotient in it (|a|·eb, |b|·ea, ea·eb…, at most four) rounds absolutely, by up to
    2⁻¹⁰⁷⁵, or flushes to 0, which the first-order slack, relative, does not cover.
    Exact results of exact operands keep a bound of 0."""
    if (e or ea or eb) and (abs(r) < MIN_NORMAL or e < MIN_NORMAL):
        return e + 2 * TINY
    return e


def _e_add(a, ea, b, eb, r):
    return ea + eb + _local(lambda x, y: x + y, a, b, r)


def _e_sub(a, ea, b, eb, r):
    return ea + eb + _local(lambda x, y: x - y, a, b, r)


def _e_mul(a, ea, b, eb, r):
    return abs(a) * eb + abs(b) * ea + ea * eb + _local(lambda x, y: x * y, a, b, r)


def _e_div(a, ea, b, eb, r):
    if eb >= abs(b):
        return math.inf
    return ((abs(a) * eb + abs(b) * ea) / (abs(b) * (abs(b) - eb))
            + _local(lambda x, y: x / y, a, b, r))


def _e_pow(a, ea, b, eb, r):
    if eb or (ea and a == 0):
        return math.inf if (eb or ea) else 2 * U * abs(r) + TINY
    rel = ea / abs(a) if a else 0.0
    try:
        grow = (1 + rel) ** abs(b) - 1
    except OverflowError:
        return math.inf
    # 2⁻¹⁰⁷⁴: a result in the subnormal range (or flushed to 0) is rounded absolutely,
    # not within 2u of itself: (5e-324) ** 3 is 0
    return abs(r) * grow + 2 * U * abs(r) + TINY


TINY = 2.0 ** -1074
MIN_NORMAL = 2.0 ** -1022


def _e_jump(a, ea, b, eb, r):  # floor division and remainder jump
    return math.inf if (ea or eb) else U * abs(r)


EXACT_FLOOR_BELOW = 2.0 ** 50


def _e_floordiv(a, ea, b, eb, r):
    """Python's ``a // b`` on exact doubles is the exact floor of a/b while the quotient
    is below 2⁵⁰ in magnitude: CPython rounds its computed quotient to the nearest
    integer, off by less than ½ there (the first wrong floor sampled lies near 2⁵¹).
    Past it the floor may be one off (10577602442620.092 // −0.002546150309715991 is
    −4154351140329955, the exact floor −4154351140329954); an inexact operand may move
    it anywhere."""
    if ea or eb:
        return math.inf
    return 0.0 if abs(r) < EXACT_FLOOR_BELOW else 1.0 + 2 * U * abs(r)


class Tracked(float):
    """A Python float with a running bound ``err`` on its rounding error."""

    err: float

    def __new__(cls, value: float, err: float = 0.0) -> "Tracked":
        x = float.__new__(cls, value)
        x.err = err
        return x

    __hash__ = float.__hash__

    def __repr__(self) -> str:
        return float.__repr__(self)

    def __neg__(self):
        return Tracked(-float.__float__(self), self.err)

    def __pos__(self):
        return self

    def __abs__(self):
        return Tracked(abs(float.__float__(self)), self.err)

    def __bool__(self) -> bool:
        v = float.__float__(self)
        if self.err and abs(v) <= self.err:
            _note("uncertain")
        return v != 0

    def _rounding(self, f: Callable[[float], int]) -> int:
        v = float.__float__(self)
        out = f(v)
        if self.err and (f(v - self.err) != out or f(v + self.err) != out):
            _note("uncertain")
        return out

    def __int__(self) -> int:
        return self._rounding(int)

    def __trunc__(self) -> int:
        return self._rounding(math.trunc)

    def __floor__(self) -> int:
        return self._rounding(math.floor)

    def __ceil__(self) -> int:
        return self._rounding(math.ceil)

    def __round__(self, ndigits=None):
        if ndigits is None:
            return self._rounding(round)
        _note("opaque")
        return round(float.__float__(self), ndigits)


def _binary(op: Callable[[float, float], Any], err: Callable, reflected: bool):
    def method(self, other):
        o = _operand(other)
        if o is None:
            return NotImplemented
        a, b = (o, (float.__float__(self), self.err)) if reflected else \
            ((float.__float__(self), self.err), o)
        r = op(a[0], b[0])
        if isinstance(r, tuple):  # divmod
            return tuple(Tracked(x, _underflow(x, err(a[0], a[1], b[0], b[1], x), a[1], b[1]))
                         for x in r)
        if not isinstance(r, float):  # a complex power
            _note("opaque")
            return r
        if not math.isfinite(r) and math.isfinite(a[0]) and math.isfinite(b[0]):
            _note("overflow")
        return Tracked(r, _underflow(r, err(a[0], a[1], b[0], b[1], r), a[1], b[1]))
    return method


def _compare(op: Callable[[float, float], bool]):
    def method(self, other):
        o = _operand(other)
        if o is None:
            return NotImplemented
        a, ea = float.__float__(self), self.err
        b, eb = o
        if ea + eb and math.isfinite(a) and math.isfinite(b) and abs(a - b) <= ea + eb:
            _note("uncertain")
        return op(a, b)
    return method


for _name, _op, _err in (
        ("add", lambda a, b: a + b, _e_add), ("sub", lambda a, b: a - b, _e_sub),
        ("mul", lambda a, b: a * b, _e_mul), ("truediv", lambda a, b: a / b, _e_div),
        ("pow", lambda a, b: a ** b, _e_pow), ("floordiv", lambda a, b: a // b, _e_floordiv),
        ("mod", lambda a, b: a % b, _e_jump), ("divmod", divmod, _e_jump)):
    setattr(Tracked, f"__{_name}__", _binary(_op, _err, False))
    setattr(Tracked, f"__r{_name}__", _binary(_op, _err, True))
for _name, _cmp in (("lt", float.__lt__), ("le", float.__le__), ("gt", float.__gt__),
                    ("ge", float.__ge__), ("eq", float.__eq__), ("ne", float.__ne__)):
    setattr(Tracked, f"__{_name}__", _compare(_cmp))


# ----------------------------------------------------------------------------- constants
def literals(fns: list[Any]) -> set[float]:
    """Float constants of the code reachable from ``fns`` (literals, folded constants,
    float globals, defaults and cell contents): operands that are not computed values."""
    out: set[float] = set()
    seen: set[int] = set()
    stack = list(fns)
    while stack and len(seen) < 500:
        obj = stack.pop()
        obj = getattr(obj, "fn", obj)
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, float):
            out.add(float(obj))
        elif isinstance(obj, (tuple, list)):
            stack.extend(obj)
        elif isinstance(obj, types.CodeType):
            stack.extend(obj.co_consts)
        elif isinstance(obj, types.FunctionType):
            stack.append(obj.__code__)
            stack.extend(obj.__defaults__ or ())
            stack.extend((obj.__kwdefaults__ or {}).values())
            stack.extend(closure_values(obj))
            names = code_names(obj.__code__)
            stack.extend(v for k, v in obj.__globals__.items() if k in names)
        elif isinstance(obj, types.ModuleType) and not _library(obj):
            stack.extend(vars(obj).values())
    return out


def _library(module: types.ModuleType) -> bool:
    from verify.engine.interp import is_library_module
    return is_library_module(module)


@contextlib.contextmanager
def watching(literals: set) -> Iterator[Watch]:
    """Note what tracked arithmetic meets inside the block (see the module docstring)."""
    watch = Watch(literals=literals)
    _WATCH.append(watch)
    try:
        yield watch
    finally:
        _WATCH.pop()
