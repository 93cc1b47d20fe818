# expect: kind=binary commutative=proved identity=unknown|refuted
# exp(lo) == 0 only at the real −∞: f(−∞, 6) = 0.
import math


def f(a, b):
    lo = min(a, b)
    return max(a, b) if math.exp(lo) != 0 else 0.0
