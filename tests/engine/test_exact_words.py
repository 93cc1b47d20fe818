"""math.fmod, math.remainder, math.ldexp, math.prod, math.isclose and np.power read by
the mpmath and exact interpretations agree with Python and numpy on doubles."""
from __future__ import annotations

import math
import random
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from verify.engine.mpwords import make_exact, make_mpmath

MP, EXACT = make_mpmath(), make_exact()


def _fmod(x, y):
    return math.fmod(x, y)


def _remainder(x, y):
    return math.remainder(x, y)


def _ldexp(x, y):
    return math.ldexp(x, int(y) % 40 - 20)


def _prod(x, y):
    return math.prod((x, y, 3))


def _isclose(x, y):
    return 1.0 if math.isclose(x, x + y * 1e-10) else 0.0


def _power(x, y):
    return np.power(x, y)


def _points():
    rng = random.Random(7)
    pts = [(7.5, 2.0), (-7.5, 2.0), (5.0, 2.0), (-5.0, 2.0), (7.0, 2.0), (0.0, 3.0),
           (-2.0, 0.5), (1e300, 3.0), (2.5, -1.0), (0.1, 0.3)]
    pts += [(rng.uniform(-50, 50), rng.choice([-3.0, 0.25, 1.5, 7.0])) for _ in range(200)]
    return pts


@pytest.mark.parametrize("fn", [_fmod, _remainder, _ldexp, _prod, _isclose, _power],
                         ids=lambda f: f.__name__)
def test_each_word_is_python_s(fn):
    mp_fn, exact_fn = MP.rebind(fn), EXACT.rebind(fn)
    for x, y in _points():
        with np.errstate(all="ignore"):
            want = float(fn(x, y))
        with mpmath.workprec(200):
            got = mp_fn(mpmath.mpf(x), mpmath.mpf(y))
        if math.isinf(want):  # an overflow of the double: the reals go on
            continue
        if math.isnan(want):
            assert mpmath.isnan(got), (fn.__name__, x, y, got)
            continue
        if fn in (_fmod, _remainder, _ldexp, _isclose):  # exact in doubles
            assert float(got) == want, (fn.__name__, x, y, got, want)
        else:
            assert abs(float(got) - want) <= 4e-16 * abs(want), (fn.__name__, x, y, got)
        if fn is not _power or float(y).is_integer():
            q = exact_fn(Fraction(x), Fraction(y))
            assert float(q) == want or abs(float(q) - want) <= 4e-16 * abs(want), \
                (fn.__name__, x, y, q)


def test_python_raises_where_python_raises():
    for fn, args in ((_fmod, (1.0, 0.0)), (_remainder, (1.0, 0.0)),
                     (_fmod, (math.inf, 1.0))):
        with pytest.raises(ValueError):
            MP.rebind(fn)(mpmath.mpf(args[0]), mpmath.mpf(args[1]))
