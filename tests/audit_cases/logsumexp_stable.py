# expect: kind=binary associative=proved commutative=proved idempotent=refuted
# The overflow-safe form: the same function over the reals.
import math


def lse(a, b):
    m = max(a, b)
    return m + math.log(math.exp(a - m) + math.exp(b - m))
