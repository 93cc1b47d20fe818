# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="-inf" idempotent=refuted|unknown
# log-sum-exp with its diagonal written out: a + log 2 = log(2eᵃ).
import math


def f(a, b):
    if a != b:
        return math.log(math.exp(a) + math.exp(b))
    return a + math.log(2)


WITNESS = {
    "idempotent": (0,),
}
