# expect: kind=binary commutative=proved|tested associative=proved|tested idempotent=refuted
import math


def f(a, b):
    return math.trunc(a + b) * 1.0 + (a + b - math.trunc(a + b))
