# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# a + log(1 + e^(b − a)) = log(eᵃ + eᵇ) over the reals; at a = −∞ it is −∞ + ∞ = NaN,
# so −∞ is no identity here (f(3, −∞) = 3 but f(−∞, 3) is NaN).
import math


def f(a, b):
    return a + math.log1p(math.exp(b - a))


WITNESS = {
    "identity": [("-inf", 3), (0, 0), ("inf", 3)],
    "idempotent": (0,),
}
