"""The mpmath and exact readings of the vocabulary: one entry per word.

mpmath: values are mpf numbers at the working precision; float literals are the exact
doubles they denote (``exact_double_mpf``). exact: values are ``fractions.Fraction``;
operations whose value is not rational raise ``Inexact``. The rebinding that runs a
function under a reading is ``verify.engine.interp``.
"""
from __future__ import annotations

import math
from fractions import Fraction
import mpmath

from verify.engine import jitdiv, ties
from verify.engine.interp import Interpretation, Namespace, Unsupported, _numpy, variadic
from verify.engine.vocabulary import register, run_directly

jitdiv.install()  # 0/0 inside @triton.jit is NaN, as on the device

# bits kept for a folded constant that no double holds (1/3): far beyond any working
# precision the oracle reaches, so no precision is frozen in
_RATIONAL_BITS = 16384


def exact_double_mpf(x: float | Fraction) -> mpmath.mpf:
    """The double ``x`` as an mpf, exactly (independent of the working precision); a
    Fraction (a folded constant's exact value) exactly where it is dyadic, else to
    ``_RATIONAL_BITS`` bits."""
    q = Fraction(x)
    dyadic = q.denominator & (q.denominator - 1) == 0
    bits = max(64, q.numerator.bit_length() + 1) if dyadic else _RATIONAL_BITS
    return mpmath.mp.make_mpf(mpmath.libmp.from_rational(q.numerator, q.denominator, bits))




# --------------------------------------------------------------------------- mpmath
# Each name keeps the semantics of the library it stands for: Python's builtin max/min
# return the first argument unless the second compares greater (smaller), so
# max(nan, 1) is nan and max(1, nan) is 1; tl/torch/numpy maximum and minimum propagate
# NaN; numpy's fmax/fmin ignore it; math.sqrt/math.log raise on a negative (or zero)
# argument as Python does, while tl/torch/numpy return NaN (and log(0) = −∞).
def _mp_max(a, b):
    return b if b > a else a


def _mp_min(a, b):
    return b if b < a else a


def _is_nan_value(x) -> bool:
    return isinstance(x, mpmath.mpf) and mpmath.isnan(x)


def _mp_maximum(a, b):
    if _is_nan_value(a) or _is_nan_value(b):
        return mpmath.nan
    return a if a >= b else b


def _mp_minimum(a, b):
    if _is_nan_value(a) or _is_nan_value(b):
        return mpmath.nan
    return a if a <= b else b


def _mp_fmax(a, b):
    if _is_nan_value(a):
        return b
    if _is_nan_value(b):
        return a
    return a if a >= b else b


def _mp_fmin(a, b):
    if _is_nan_value(a):
        return b
    if _is_nan_value(b):
        return a
    return a if a <= b else b


def _float_sqrt(x):
    x = mpmath.mpf(x)
    return mpmath.nan if x < 0 else mpmath.sqrt(x)


def _float_log(x):
    x = mpmath.mpf(x)
    return mpmath.nan if x < 0 else mpmath.log(x)


def _python_sqrt(x):
    x = mpmath.mpf(x)
    if x < 0:
        raise ValueError("math domain error")
    return mpmath.sqrt(x)


def _python_log(x, base=None):
    x = mpmath.mpf(x)
    if x <= 0:
        raise ValueError("math domain error")
    return mpmath.log(x) if base is None else mpmath.log(x, base)


def _python_log1p(x):
    x = mpmath.mpf(x)
    if x <= -1:
        raise ValueError("math domain error")
    return mpmath.log1p(x)


def _python_log2(x):
    return _python_log(x, 2)


def _mp_where(c, a, b):
    return a if c else b


# Library constants are Python floats: the exact doubles they denote (one rule for
# numbers), not mpmath's π and e.
_PI, _E, _TAU = (exact_double_mpf(c) for c in (math.pi, math.e, math.tau))


def _mp_logaddexp(a, b):
    """numpy's logaddexp: log(eᵃ + eᵇ), −∞ for two −∞, NaN for a NaN."""
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    if mpmath.isnan(a) or mpmath.isnan(b):
        return mpmath.nan
    m = a if a >= b else b
    if mpmath.isinf(m):
        return m
    return m + mpmath.log(mpmath.exp(a - m) + mpmath.exp(b - m))


def _mp_clip(x, lo, hi):
    """numpy's clip: minimum(maximum(x, lo), hi), NaN propagating."""
    return _mp_minimum(_mp_maximum(x, lo), hi)


def _mp_trunc(x):
    return int(mpmath.floor(x)) if x >= 0 else -int(mpmath.floor(-x))


def _mp_float_trunc(x):
    x = mpmath.mpf(x)
    if not mpmath.isfinite(x):
        return x
    return mpmath.mpf(_mp_trunc(x))


def _rational(x) -> Fraction:
    """An mpf (always dyadic) or a Fraction/int as an exact Fraction."""
    if isinstance(x, mpmath.mpf):
        sign, man, exp, _ = x._mpf_
        return (-1) ** sign * Fraction(man) * Fraction(2) ** exp
    return Fraction(x)


def _finite(*xs) -> bool:
    return all(not isinstance(x, mpmath.mpf) or mpmath.isfinite(x) for x in xs)


def _python_fmod(x, y, back=exact_double_mpf):
    """math.fmod: x − y·trunc(x/y), the sign of x; raises where Python raises."""
    return _reduced(x, y, back, lambda q, d: (abs(q) // abs(d)) * (1 if (q >= 0) == (d >= 0)
                                                                   else -1))


def _python_remainder(x, y, back=exact_double_mpf):
    """math.remainder: x − n·y with n the integer nearest x/y, ties to even."""
    return _reduced(x, y, back, lambda q, d: round(q / d))


def _reduced(x, y, back, quotient):
    """x − quotient(x, y)·y exactly, with the domain both of Python's remainders share:
    y = 0 or an infinite x raises, an infinite y leaves x as it is."""
    if y == 0 or not _finite(x):
        raise ValueError("math domain error")
    if not _finite(y):
        return x
    q, d = _rational(x), _rational(y)
    return back(q - quotient(q, d) * d)


def _python_ldexp(x, i, back=exact_double_mpf):
    """math.ldexp: x · 2**i (i an integer, as Python requires)."""
    if not isinstance(i, int):
        raise TypeError("Expected an int as second argument to ldexp.")
    return back(_rational(x) * Fraction(2) ** i) if _finite(x) else x


def _python_prod(items, *, start=1):
    """math.prod: the product, left to right, from ``start``."""
    out = start
    for x in items:
        out = out * x
    return out


def _python_fsum(items):
    """math.fsum: the exact sum (Python rounds it once, to the nearest double; over ℝ
    it is the sum itself)."""
    out = 0
    for x in items:
        out = out + x
    return out


_REL_TOL = Fraction(1e-09)


def _python_isclose(a, b, *, rel_tol=_REL_TOL, abs_tol=0):
    """math.isclose with Python's test, on the interpretation's exact numbers."""
    if a == b:
        return True
    if not _finite(a, b):
        return False
    diff = abs(b - a)
    return bool(diff <= abs(rel_tol * b) or diff <= abs(rel_tol * a) or diff <= abs_tol)


def _mp_isclose(a, b, *, rel_tol=None, abs_tol=0):
    tol = exact_double_mpf(1e-09) if rel_tol is None else rel_tol
    return _python_isclose(a, b, rel_tol=tol, abs_tol=abs_tol)


def _mp_power(x, y):
    """numpy's power on reals: NaN for a negative base under a non-integer exponent,
    ±∞ for zero under a negative one."""
    x, y = mpmath.mpf(x), mpmath.mpf(y)
    if mpmath.isnan(x) or mpmath.isnan(y):
        return mpmath.nan
    if x < 0 and mpmath.isfinite(y) and y != mpmath.floor(y):
        return mpmath.nan
    if x == 0 and y < 0:
        return mpmath.inf
    return mpmath.power(x, y)


def _exact_power(x, y):
    if Fraction(y).denominator != 1:
        raise Inexact("power with a non-integer exponent is not rational")
    return Fraction(x) ** int(y)


def _landing(fn):
    """``fn`` (exp, tanh, cos, cosh, expm1: transcendental, so irrational at every rational
    point but 0) noting a value rounded onto an integer (tanh(−1424) is −1 at any
    precision below ~4110 bits; see ``verify.engine.ties``)."""
    def word(x):
        y = fn(x)
        with ties.paused():
            landed = isinstance(y, mpmath.mpf) and mpmath.isfinite(y) and mpmath.isint(y) \
                and isinstance(x, (mpmath.mpf, int)) and mpmath.isfinite(x) and x != 0
        if landed:
            ties.rounded()
        return y
    word.__name__ = getattr(fn, "__name__", "word")
    return word


_EXP, _TANH, _COS, _COSH, _EXPM1 = (_landing(mpmath.exp), _landing(mpmath.tanh),
                                     _landing(mpmath.cos), _landing(mpmath.cosh),
                                     _landing(mpmath.expm1))


def _on_ints(fn):
    """A math word defined on Python ints only (gcd, comb, …): run by Python itself on
    ints, a TypeError on anything else, as Python raises for a float (an mpf or a
    Fraction stands for a float here)."""
    def word(*args):
        for a in args:
            if not isinstance(a, int):
                raise TypeError(f"'{type(a).__name__}' object cannot be interpreted as an "
                                "integer")
        return fn(*args)
    word.__name__ = fn.__name__
    return word


# Python's integer-only math words, the same in every numeric reading
INTEGER_WORDS = {name: _on_ints(getattr(math, name))
                 for name in ("gcd", "lcm", "comb", "perm", "factorial", "isqrt")}


# numpy/math scalar words shared by the mpmath reading of np and math
_MP_NUMPY_EXTRA = dict(
    logaddexp=_mp_logaddexp, clip=_mp_clip, trunc=_mp_float_trunc,
    floor=lambda x: mpmath.floor(x), ceil=lambda x: mpmath.ceil(x),
    square=lambda x: x * x, log2=lambda x: _float_log(x) / mpmath.log(2),
    log10=lambda x: _float_log(x) / mpmath.log(10), exp2=lambda x: mpmath.power(2, x),
    cbrt=mpmath.cbrt, negative=lambda x: -x, reciprocal=lambda x: 1 / x,
    arctan=mpmath.atan, tan=mpmath.tan, sinh=mpmath.sinh, cosh=_COSH,
    isnan=mpmath.isnan, isinf=mpmath.isinf, isfinite=mpmath.isfinite)


def make_mpmath() -> Interpretation:
    tl = Namespace(
        "tl", maximum=_mp_maximum, minimum=_mp_minimum, where=_mp_where, exp=_EXP,
        log=_float_log, sqrt=_float_sqrt, abs=abs, exp2=lambda x: mpmath.power(2, x),
        log2=lambda x: mpmath.log(x, 2), fma=lambda a, b, c: a * b + c,
        sigmoid=lambda x: 1 / (1 + _EXP(-x)), cdiv=lambda a, b: -(-a // b),
        tanh=_TANH, log1p=mpmath.log1p, expm1=_EXPM1, sin=mpmath.sin,
        cos=_COS, float32=None, float64=None, int32=None, int64=None)
    mathns = Namespace(
        "math", exp=_EXP, log=_python_log, sqrt=_python_sqrt, fabs=abs,
        inf=mpmath.inf, nan=mpmath.nan, pi=_PI, e=_E, tau=_TAU, isinf=mpmath.isinf,
        isnan=mpmath.isnan,
        log1p=_python_log1p, log2=_python_log2, expm1=_EXPM1, tanh=_TANH,
        sin=mpmath.sin, cos=_COS, pow=lambda a, b: a ** b, floor=mpmath.floor,
        ceil=mpmath.ceil,
        copysign=lambda a, b: abs(a) if b >= 0 else -abs(a), hypot=mpmath.hypot,
        trunc=_mp_trunc, log10=lambda x: _python_log(x, 10), atan=mpmath.atan,
        tan=mpmath.tan, sinh=mpmath.sinh, cosh=_COSH, isfinite=mpmath.isfinite,
        fmod=_python_fmod, remainder=_python_remainder, ldexp=_python_ldexp,
        prod=_python_prod, fsum=_python_fsum, isclose=_mp_isclose, **INTEGER_WORDS)
    np = Namespace(
        "np", fallback=_numpy(), maximum=_mp_maximum, minimum=_mp_minimum, where=_mp_where,
        exp=_EXP, log=_float_log, sqrt=_float_sqrt, abs=abs, inf=mpmath.inf,
        nan=mpmath.nan, tanh=_TANH, log1p=mpmath.log1p, expm1=_EXPM1, fmax=_mp_fmax,
        fmin=_mp_fmin,
        hypot=mpmath.hypot, pi=_PI, e=_E, sign=mpmath.sign, sin=mpmath.sin, cos=_COS,
        sigmoid=lambda x: 1 / (1 + _EXP(-x)), power=_mp_power, **_MP_NUMPY_EXTRA)
    return Interpretation("mpmath", tl, mathns,
                          {"max": variadic(_mp_max, max), "min": variadic(_mp_min, min),
                           "abs": abs},
                          np=np, torch=np, literal=exact_double_mpf, unfold=True)


# --------------------------------------------------------------------------- exact
class Inexact(Unsupported):
    """An operation whose value is not a rational (exp, log, sqrt, ±∞)."""


def _exact_isinf(x) -> bool:
    """A rational is finite however large; only a float (±∞, NaN) can be infinite."""
    return isinstance(x, float) and math.isinf(x)


def _exact_isfinite(x) -> bool:
    return not (isinstance(x, float) and not math.isfinite(x))


def make_exact() -> Interpretation:
    """Values are ``fractions.Fraction`` (and ints): exact rational arithmetic, used to
    replay a function where its sides are rational. exp/log/sqrt raise ``Inexact``; an
    infinity turns into a float, which the caller sees as a non-rational result."""
    def refuse(name):
        def f(*_a, **_k):
            raise Inexact(f"{name} is not rational")
        f.unsupported = f"{name} is not rational"
        return f

    def where(c, a, b):
        return a if c else b

    def maximum(a, b):
        return a if a >= b else b

    def minimum(a, b):
        return a if a <= b else b

    common = dict(maximum=maximum, minimum=minimum, where=where, abs=abs,
                  fma=lambda a, b, c: a * b + c, exp=refuse("exp"), log=refuse("log"),
                  sqrt=refuse("sqrt"), exp2=refuse("exp2"), log2=refuse("log2"),
                  sigmoid=refuse("sigmoid"), tanh=refuse("tanh"), log1p=refuse("log1p"),
                  expm1=refuse("expm1"), inf=math.inf)
    tl = Namespace("tl", cdiv=lambda a, b: -(-a // b), float32=None, float64=None,
                   int32=None, int64=None, **common)
    tests = dict(isinf=_exact_isinf, isfinite=_exact_isfinite)
    mathns = Namespace("math", fabs=abs, pi=Fraction(math.pi), e=Fraction(math.e),
                       tau=Fraction(math.tau), floor=math.floor,
                       ceil=math.ceil, nan=math.nan,
                       fmod=lambda x, y: _python_fmod(x, y, back=Fraction),
                       remainder=lambda x, y: _python_remainder(x, y, back=Fraction),
                       ldexp=lambda x, i: _python_ldexp(x, i, back=Fraction),
                       prod=_python_prod, fsum=_python_fsum, isclose=_python_isclose,
                       **tests, **common,
                       **INTEGER_WORDS)
    np = Namespace("np", fallback=_numpy(), fmax=maximum, fmin=minimum, sign=lambda x:
                   (x > 0) - (x < 0), pi=Fraction(math.pi), e=Fraction(math.e),
                   nan=math.nan, power=_exact_power, **tests, **common)
    return Interpretation("exact", tl, mathns,
                          {"max": variadic(_mp_max, max), "min": variadic(_mp_min, min),
                           "abs": abs},
                          np=np, torch=np, literal=Fraction, unfold=True)


register("mpmath", make_mpmath, lambda: (mpmath.mpf(7), run_directly),
         "mpmath numbers at the working precision (the oracle)")
register("exact", make_exact, lambda: (Fraction(7), run_directly),
         "Fractions: exact rational arithmetic (replays where the sides are rational)")
