# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="-inf" idempotent=refuted|unknown
# log1p(eᵃ + eᵇ − 1) = log(eᵃ + eᵇ): the log1p argument is above −1 for every pair.
import math


def f(a, b):
    return math.log1p(math.exp(a) + math.exp(b) - 1)


WITNESS = {
    "idempotent": (0,),
}
