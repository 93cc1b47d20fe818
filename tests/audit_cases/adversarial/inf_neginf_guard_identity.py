# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="-inf" idempotent=proved|tested|unknown
# Max with explicit −∞ tests: −∞ is the identity, as written.
import math


def f(a, b):
    if a == -math.inf:
        return b
    if b == -math.inf:
        return a
    return max(a, b)
