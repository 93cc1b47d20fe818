# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=refuted|unknown
# min(a + b, ∞) is a + b for every real pair.
import math


def f(a, b):
    return min(a + b, math.inf)


WITNESS = {
    "idempotent": (1,),
}
