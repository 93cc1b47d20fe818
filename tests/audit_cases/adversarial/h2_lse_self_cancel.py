# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=refuted|unknown
# log(eᵃ + eᵇ) + (a − a): log-sum-exp over the reals. At a = −∞ the extra term is
# −∞ − (−∞) = NaN, so f(−∞, 3) is NaN, not 3. No real identity: f(e, a) > a.
import math


def f(a, b):
    return math.log(math.exp(a) + math.exp(b)) + (a - a)


WITNESS = {
    "identity": [("-inf", 3), (0, 0), ("inf", 3)],
    "idempotent": (0,),
    "separable": (0, 1, 0, 1),
    "additively_separable": (0, 1, 0, 1),
}
