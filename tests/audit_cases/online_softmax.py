# expect: kind=binary associative=proved commutative=proved identity=proved idempotent=refuted
import math


def combine(a, b):
    m = max(a[0], b[0])
    return m, a[1] * math.exp(a[0] - m) + b[1] * math.exp(b[0] - m)
