# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="-inf" idempotent=proved|tested|unknown
# max as a loop from −∞.
import math


def f(a, b):
    m = -math.inf
    for x in (a, b):
        if x > m:
            m = x
    return m
