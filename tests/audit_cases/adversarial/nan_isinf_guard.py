# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=1 idempotent=refuted|unknown
# a·b for finite values (the isinf branch is for ±∞ only).
import math


def f(a, b):
    if not (math.isinf(a) or math.isinf(b)):
        return a * b
    return max(a, b)


WITNESS = {
    "idempotent": (2,),
}
