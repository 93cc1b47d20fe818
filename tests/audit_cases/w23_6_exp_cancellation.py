# expect: kind=binary associative=proved|tested|unknown idempotent=proved|tested|unknown commutative=refuted
# exp(a²) + b − exp(a²) is b over the reals; at a = 12 a double loses b, and so does
# any fixed working precision below ~210 bits.
import math


def f(a, b):
    return math.exp(a * a) + b - math.exp(a * a)
