# expect: kind=binary associative=proved|tested commutative=proved|tested idempotent=refuted
import math


def f(a, b):
    return math.prod((a, b))
