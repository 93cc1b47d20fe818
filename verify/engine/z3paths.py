"""Running a function over z3 terms, path by path.

- Python's ``if`` on a symbolic condition forks: the function is re-run once per path
  (recorded branch choices) and the results are joined with ``If``. z3's own
  ``__bool__`` would silently answer *structural* equality for ``if a == b``; it is
  replaced while a function runs here, and so is hashing of terms (a dict keyed by
  symbols would never ask whether two are equal).
- Python's ``/``, ``//``, ``%`` and ``divmod`` on terms follow Python: ``/`` records
  its side condition on the path, ints divide truly, floor division floors.
- z3's own code and the checker's keep z3's structural ``__bool__`` and hashing; both
  are recognised by where the calling code lives, never by a module name.
"""
from __future__ import annotations

import contextlib
import math
import os
import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable

import numpy as np
import z3

import verify
from verify.engine import interp as _interp
from verify.engine import mathtext
from verify.engine.interp import Unsupported
from verify.engine.nan import any_of

if TYPE_CHECKING:
    from verify.engine.z3interp import Z3Context

MAX_PATHS = 256
MAX_BRANCHES_PER_PATH = 64

_Z3_DIR = os.path.realpath(os.path.dirname(z3.__file__)) + os.sep
_CHECKER_DIR = os.path.realpath(os.path.dirname(verify.__file__)) + os.sep
_DIR_OF: dict[str, tuple[bool, bool]] = {}


def _origin(filename: str) -> tuple[bool, bool]:
    """(is z3's own code, is the checker's own code) for a code object's file."""
    known = _DIR_OF.get(filename)
    if known is None:
        real = os.path.realpath(filename) if not filename.startswith("<") else filename
        known = (real.startswith(_Z3_DIR), real.startswith(_CHECKER_DIR))
        _DIR_OF[filename] = known
    return known


# --------------------------------------------------------------------------- forking
class _Branches:
    def __init__(self, prefix: list[bool]) -> None:
        self.prefix = prefix
        self.taken: list[tuple[z3.BoolRef, bool]] = []


_ACTIVE: list[_Branches] = []
_ORIGINAL_BOOL = z3.AstRef.__bool__
_ORIGINAL_REALVAL = z3.z3.RealVal


def _forking_bool(self):
    if z3.is_true(self):
        return True
    if z3.is_false(self):
        return False
    if not _ACTIVE or _origin(sys._getframe(1).f_code.co_filename)[0]:
        return _ORIGINAL_BOOL(self)
    cond = _CTX_FOR_INF[-1].nan.test(self) if _CTX_FOR_INF else self  # IEEE: NaN < x
    simplified = z3.simplify(cond)
    if _CTX_FOR_INF:
        _CTX_FOR_INF[-1].decided_by_form(self, simplified)
    if z3.is_true(simplified):
        return True
    if z3.is_false(simplified):
        return False
    br = _ACTIVE[-1]
    i = len(br.taken)
    if i >= MAX_BRANCHES_PER_PATH:
        raise Unsupported(f"more than {MAX_BRANCHES_PER_PATH} symbolic branches on one path")
    choice = br.prefix[i] if i < len(br.prefix) else True
    br.taken.append((cond, choice))
    if _CTX_FOR_INF:
        _CTX_FOR_INF[-1].branch_conditions.append(cond)
    return choice


# every z3 term class that defines its own __hash__ (ExprRef calls AstRef's)
_HASHED = [c for c in (z3.AstRef, z3.ExprRef, z3.SortRef, z3.FuncDeclRef)
           if "__hash__" in c.__dict__]
_ORIGINAL_HASH = {c: c.__dict__["__hash__"] for c in _HASHED}


def _refusing_hash(self):
    # A dict, set or Counter keyed by symbolic values would compare keys by their
    # structural hash and never ask whether two symbols are equal: no fork, a wrong
    # answer. Library code (z3's own, the checker's) may still hash terms.
    if not _ACTIVE or any(_origin(sys._getframe(1).f_code.co_filename)):
        return self.hash()
    raise Unsupported("the function hashes a symbolic value (dict, set, Counter, "
                      "statistics.mode...), which the prover cannot follow")


_CTX_FOR_INF: list[Z3Context] = []


def _realval(val, ctx=None):
    if isinstance(val, float):
        if _CTX_FOR_INF and math.isinf(val):
            return _CTX_FOR_INF[-1].infinity(1 if val > 0 else -1)
        if _CTX_FOR_INF and math.isnan(val):
            return _CTX_FOR_INF[-1].nan.literal()
        if math.isfinite(val):  # the double itself, not the decimal its repr spells
            return _ORIGINAL_REALVAL(Fraction(val), ctx)
    return _ORIGINAL_REALVAL(val, ctx)


_ORIGINAL_DIV = z3.ArithRef.__truediv__
_ORIGINAL_RDIV = z3.ArithRef.__rtruediv__


def _record_division(den) -> bool:
    """Python's ``/`` raises on a zero denominator (unless it is NaN); inside a
    ``@triton.jit`` function it gives ±∞ or NaN instead, which matters only where the
    value is used: True there, when the denominator may be 0."""
    frame = sys._getframe(2)
    if any(_origin(frame.f_code.co_filename)):
        return False
    try:
        den = _as_expr(den)
    except Unsupported:
        return False  # not a number: z3 itself will refuse the division
    if z3.is_rational_value(den) or z3.is_int_value(den) or not z3.is_arith(den):
        return False
    ctx = _CTX_FOR_INF[-1]
    if ctx.is_exp_monomial(den):
        return False
    if frame.f_code in _interp.JIT_CODES:
        return True
    nan = ctx.nan.condition(den)
    ctx.record_raising(den != 0 if z3.is_false(nan) else z3.Or(nan, den != 0),
                       mathtext.text(den) + " ≠ 0")
    return False


def _jit_quotient(q):
    """x / y inside ``@triton.jit``: NaN where x = y = 0, ±∞ (not modelled) elsewhere
    where y = 0."""
    ctx = _CTX_FOR_INF[-1]
    num, den = q.children()
    ctx.unbounded[q.get_id()] = q
    ctx.nan.source(q, z3.And(num == 0, den == 0))
    return q


def _dividing(self, other):
    jit = _record_division(other) if _CTX_FOR_INF else False
    if _both_int(self, other):  # Python's int / int is true division, z3's is not
        q = _ORIGINAL_DIV(_to_real(self), _to_real(other))
    else:
        q = _ORIGINAL_DIV(self, other)
    return _jit_quotient(q) if jit else q


def _rdividing(self, other):
    jit = _record_division(self) if _CTX_FOR_INF else False
    if _both_int(self, other):
        q = _ORIGINAL_DIV(_to_real(other), _to_real(self))
    else:
        q = _ORIGINAL_RDIV(self, other)
    return _jit_quotient(q) if jit else q


def _is_int(x) -> bool:
    if isinstance(x, bool):
        return False
    if isinstance(x, int):
        return True
    return z3.is_expr(x) and z3.is_arith(x) and x.is_int()


def _both_int(a, b) -> bool:
    return _is_int(a) and _is_int(b)


def _to_real(x):
    if isinstance(x, int):
        return _ORIGINAL_REALVAL(x)
    if z3.is_int_value(x):
        return _ORIGINAL_REALVAL(x.as_long())
    return z3.ToReal(x) if x.is_int() else x


def _arith(x) -> z3.ArithRef:
    if isinstance(x, bool) or (z3.is_expr(x) and not z3.is_arith(x)):
        raise Unsupported("floor division of a truth value")
    if isinstance(x, int):
        return z3.IntVal(x)
    return _as_expr(x)


def _floor_pair(a, b):
    """Python's ``divmod(a, b)``: ⌊a/b⌋ (z3's ToInt is the floor) and a − b·⌊a/b⌋, so
    the remainder has the divisor's sign; ints give ints, anything else reals."""
    if _CTX_FOR_INF and _CTX_FOR_INF[-1]._inf:
        raise Unsupported("floor division in a function with ±∞ has no z3 encoding "
                          "(Python's inf // x is NaN)")
    a, b = _arith(a), _arith(b)
    if _CTX_FOR_INF:
        for x in (a, b):
            _CTX_FOR_INF[-1].nan.refuse(x, "floor division")
    q = z3.ToInt(_ORIGINAL_DIV(_to_real(a), _to_real(b)))
    if not _both_int(a, b):
        q = z3.ToReal(q)
    return q, a - b * q


def _floordividing(self, other):
    if _CTX_FOR_INF:
        _record_division(other)
    return _floor_pair(self, other)[0]


def _rfloordividing(self, other):
    if _CTX_FOR_INF:
        _record_division(self)
    return _floor_pair(other, self)[0]


def _modulo(self, other):
    if _CTX_FOR_INF:
        _record_division(other)
    return _floor_pair(self, other)[1]


def _rmodulo(self, other):
    if _CTX_FOR_INF:
        _record_division(self)
    return _floor_pair(other, self)[1]


def _divmod(self, other):
    if _CTX_FOR_INF:
        _record_division(other)
    return _floor_pair(self, other)


def _rdivmod(self, other):
    if _CTX_FOR_INF:
        _record_division(self)
    return _floor_pair(other, self)


_ORIGINAL_POW = z3.ArithRef.__pow__


def _exponent(x) -> Fraction | None:
    """A constant exponent as an exact number, or None where it is symbolic."""
    if isinstance(x, bool):
        return None
    if isinstance(x, (int, Fraction)):
        return Fraction(x)
    if isinstance(x, float):
        return Fraction(x) if math.isfinite(x) else None
    if z3.is_int_value(x):
        return Fraction(x.as_long())
    if z3.is_rational_value(x):
        return Fraction(x.numerator_as_long(), x.denominator_as_long())
    return None


def _python_power(base, exponent):
    """Python's ``base ** exponent`` on terms. A negative integer power of 0 raises
    (ZeroDivisionError): base ≠ 0 on the path. A negative base to a non-integer power is
    a complex number in Python (``(-8.0) ** (1/3)`` is 1 + 1.73j, not the real cube root
    z3's power would give): the base must be ≥ 0 (> 0 for a negative exponent) where
    the value is used, a stated assumption like a root's. A symbolic exponent needs, on
    the path, a base > 0, or 0 with an exponent ≥ 0, or an integer exponent."""
    if any(_origin(sys._getframe(2).f_code.co_filename)) or not _CTX_FOR_INF:
        return _ORIGINAL_POW(_as_expr(base), exponent)
    ctx = _CTX_FOR_INF[-1]
    b = _as_expr(base, ctx)
    k = _exponent(exponent)
    if not z3.is_arith(b):
        raise Unsupported("a power of a truth value")
    nan = ctx.nan.condition(b)
    shown = mathtext.text(b)
    if k is None:
        e = _to_real(_as_expr(exponent, ctx))
        ctx.record_raising(any_of(nan, ctx.nan.condition(e), b > 0,
                                  z3.And(b == 0, e >= 0), z3.And(b < 0, z3.IsInt(e))),
                           f"{shown} > 0, or {shown} = 0 ≤ the exponent, or an integer "
                           "exponent (Python's ** is complex or raises elsewhere)")
        return _ORIGINAL_POW(_to_real(b), e)
    if k < 0:
        ctx.record_raising(any_of(nan, b != 0), f"{shown} ≠ 0 (0 ** {k} raises)")
    if k.denominator == 1:
        if k < 0:
            return _ORIGINAL_DIV(z3.RealVal(1), _ORIGINAL_POW(_to_real(b), int(-k)))
        return _ORIGINAL_POW(b, int(k))
    term = _ORIGINAL_POW(_to_real(b), z3.RealVal(k))
    ctx.real_power(term, b, any_of(nan, b > 0 if k < 0 else b >= 0),
                   f"base of ** {k} {'positive' if k < 0 else 'nonnegative'} (a negative "
                   "base gives a complex number in Python)")
    return term


def _powering(self, other, modulo=None):
    if modulo is not None:
        raise Unsupported("pow with a modulus has no z3 encoding")
    return _python_power(self, other)


def _rpowering(self, other):
    return _python_power(other, self)


# Python's arithmetic on z3 terms while a function runs symbolically: true division
# records its side condition, floor division and % follow Python (z3's own % is the
# SMT-LIB one, nonnegative, and only for ints), ** is Python's real power.
_PATCHED = {"__truediv__": _dividing, "__rtruediv__": _rdividing,
            "__floordiv__": _floordividing, "__rfloordiv__": _rfloordividing,
            "__mod__": _modulo, "__rmod__": _rmodulo, "__divmod__": _divmod,
            "__rdivmod__": _rdivmod, "__pow__": _powering, "__rpow__": _rpowering}
_UNPATCHED = {name: z3.ArithRef.__dict__.get(name) for name in _PATCHED}


@contextlib.contextmanager
def _symbolic(ctx: Z3Context, branches: _Branches):
    _ACTIVE.append(branches)
    _CTX_FOR_INF.append(ctx)
    z3.AstRef.__bool__ = _forking_bool
    for cls in _HASHED:
        cls.__hash__ = _refusing_hash
    z3.z3.RealVal = _realval
    for name, method in _PATCHED.items():
        setattr(z3.ArithRef, name, method)
    try:
        yield
    finally:
        _ACTIVE.pop()
        _CTX_FOR_INF.pop()
        if not _ACTIVE:
            z3.AstRef.__bool__ = _ORIGINAL_BOOL
            for cls in _HASHED:
                cls.__hash__ = _ORIGINAL_HASH[cls]
            z3.z3.RealVal = _ORIGINAL_REALVAL
            for name, method in _UNPATCHED.items():
                if method is None:
                    delattr(z3.ArithRef, name)
                else:
                    setattr(z3.ArithRef, name, method)


def evaluate(ctx: Z3Context, fn: Callable[[], Any]) -> Any:
    """Run ``fn()`` (already rebound to ``ctx.interp``) over every symbolic path and
    join the results with ``If``."""
    paths: list[tuple[list[tuple[z3.BoolRef, bool]], Any]] = []
    stack: list[list[bool]] = [[]]
    while stack:
        prefix = stack.pop()
        br = _Branches(prefix)
        with _symbolic(ctx, br):
            try:
                result = fn()
            except Unsupported:
                raise
            except AssertionError:  # an assert is a precondition: this path is outside
                result = _ASSERTED
            except Exception as exc:  # the function cannot run on symbolic values
                raise Unsupported(f"the function failed on symbolic values: "
                                  f"{type(exc).__name__}: {exc}") from exc
        for j in range(len(prefix), len(br.taken)):
            stack.append([c for _, c in br.taken[:j]] + [not br.taken[j][1]])
        paths.append((br.taken, result))
        if len(paths) > MAX_PATHS:
            raise Unsupported(f"more than {MAX_PATHS} symbolic paths")
    excluded = [taken for taken, value in paths if value is _ASSERTED]
    paths = [(taken, value) for taken, value in paths if value is not _ASSERTED]
    if not paths:
        raise Unsupported("every path of the function fails an assert")
    for taken in excluded:
        cond = z3.Not(z3.And(*[c if choice else z3.Not(c) for c, choice in taken]))
        ctx.side.append(cond)
        ctx.assumptions.append((f"precondition (assert): {mathtext.text(z3.simplify(cond))}",
                                None))
    ctx.max_paths = max(ctx.max_paths, len(paths))
    result = paths[-1][1]
    for taken, value in reversed(paths[:-1]):
        cond = z3.And(*[c if choice else z3.Not(c) for c, choice in taken])
        result = _join(ctx, cond, value, result)
    return result


_ASSERTED = object()  # a path on which an assert failed


def _join(ctx, cond, a, b):
    if isinstance(a, (tuple, list)):
        if not isinstance(b, (tuple, list)) or len(a) != len(b):
            raise Unsupported("branches return values of different shapes")
        return type(a)(_join(ctx, cond, x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        out = np.empty(a.shape, dtype=object)
        for idx in np.ndindex(*a.shape):
            out[idx] = _join(ctx, cond, a[idx], b[idx])
        return out
    if isinstance(a, bool) and isinstance(b, bool):
        return z3.If(cond, z3.BoolVal(a), z3.BoolVal(b))
    a, b = _as_expr(a, ctx), _as_expr(b, ctx)
    if z3.is_bool(a) != z3.is_bool(b):
        raise Unsupported("branches return a truth value on one side and a number on "
                          "the other")
    return z3.If(cond, a, b)


def _as_expr(x, ctx: Z3Context | None = None):
    if z3.is_expr(x):
        return x
    if isinstance(x, bool):
        return z3.BoolVal(x)
    if isinstance(x, float):
        if math.isinf(x):
            ctx = ctx or (_CTX_FOR_INF[-1] if _CTX_FOR_INF else None)
            if ctx is None:
                raise Unsupported("an infinity outside a symbolic evaluation")
            return ctx.infinity(1 if x > 0 else -1)
        if math.isnan(x):
            ctx = ctx or (_CTX_FOR_INF[-1] if _CTX_FOR_INF else None)
            if ctx is None:
                raise Unsupported("a NaN outside a symbolic evaluation")
            return ctx.nan.literal()
        return z3.RealVal(Fraction(x))
    if isinstance(x, (int, Fraction)):
        return z3.RealVal(x)
    raise Unsupported(f"a {type(x).__name__} value has no z3 meaning")
