# expect: kind=binary associative=proved commutative=proved identity=proved|tested identity.element="-inf" idempotent=refuted separable=refuted
import math


def lse(a, b):
    return math.log(math.exp(a) + math.exp(b))
