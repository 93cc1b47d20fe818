# expect: kind=binary commutative=proved associative=proved idempotent=refuted
# The minimum of the positive arguments, −∞ when there is none. Without the isinf
# guard two masked arguments give (−∞) + (−∞) − (−∞) = NaN; with it f is min of the
# masked values, a semilattice operation on (0, ∞) ∪ {−∞}.
import math


def f(a, b):
    x = a if a > 0 else -math.inf
    y = b if b > 0 else -math.inf
    m = max(x, y)
    if math.isinf(m):
        return m
    return x + y - m
