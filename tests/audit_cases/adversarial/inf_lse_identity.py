# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="-inf" idempotent=refuted|unknown
# log(eᵃ + eᵇ): log(e^−∞ + eᵃ) = a, no NaN on the way.
import math


def f(a, b):
    return math.log(math.exp(a) + math.exp(b))


WITNESS = {
    "idempotent": (0,),
}
