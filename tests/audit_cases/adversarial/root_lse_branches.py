# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="-inf" idempotent=refuted|unknown
# The overflow-safe log-sum-exp, one branch per larger argument; −∞ is an identity
# (the other branch is taken, and log(1 + e^−∞) = 0).
import math


def f(a, b):
    if a >= b:
        return a + math.log(1 + math.exp(b - a))
    return b + math.log(1 + math.exp(a - b))


WITNESS = {
    "idempotent": (0,),
}
