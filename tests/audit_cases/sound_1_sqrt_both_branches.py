# expect: kind=binary commutative=proved associative=refuted
# |a − b| through two guarded roots: each root's condition holds on its own path, so
# the function is total and symmetric.
import math


def f(a, b):
    d = a - b
    if d >= 0:
        return math.sqrt(d * d)
    return math.sqrt(d * d)
