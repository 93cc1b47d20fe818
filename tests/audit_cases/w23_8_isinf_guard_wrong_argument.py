# expect: kind=binary commutative=refuted associative=refuted idempotent=refuted
# The guard of w23_8_isinf_guard tested on x instead of the maximum: f(0, 2) takes it
# and returns m = 2, while f(2, 0) computes 2 + (−∞) − 2 = −∞.
import math


def f(a, b):
    x = a if a > 0 else -math.inf
    y = b if b > 0 else -math.inf
    m = max(x, y)
    if math.isinf(x):
        return m
    return x + y - m
