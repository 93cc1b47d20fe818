# expect: kind=binary commutative=refuted associative=refuted idempotent=refuted
# The guard of w23_8_isfinite_guard tested on x: f(0, 1) takes it (x = ∞) and returns
# 1, but f(1, 0) reaches ∞ + min(1 − ∞, 0) = ∞ − ∞ = NaN.
import math


def f(a, b):
    x = a if a > 0 else math.inf
    y = b if b > 0 else math.inf
    if not math.isfinite(x):
        return y
    return y + min(x - y, 0.0)
