# expect: kind=binary associative=refuted|unknown idempotent=refuted|unknown commutative=proved|tested|unknown
# np.power with a fractional exponent: NaN for a negative base, as numpy gives it.
import numpy as np


def f(a, b):
    return float(np.power(a ** 3 + b ** 3, 1 / 3))
