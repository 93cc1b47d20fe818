# expect: kind=binary associative=refuted commutative=proved|tested idempotent=proved|tested
# math.ldexp(x, −1) halves exactly: the mean of two, commutative, not associative.
import math


def f(a, b):
    return math.ldexp(a + b, -1)
