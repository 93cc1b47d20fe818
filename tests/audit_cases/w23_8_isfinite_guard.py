# expect: kind=binary commutative=proved associative=proved idempotent=refuted
# Nonpositive arguments are masked as +∞ and f is their minimum: y + min(x − y, 0) is
# min(x, y) except at y = +∞, where x − y is −∞ and ∞ + (−∞) is NaN; the isfinite guard
# on y takes exactly that case.
import math


def f(a, b):
    x = a if a > 0 else math.inf
    y = b if b > 0 else math.inf
    if not math.isfinite(y):
        return x
    return y + min(x - y, 0.0)
