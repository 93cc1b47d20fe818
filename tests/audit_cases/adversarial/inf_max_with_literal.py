# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown identity=proved|tested|unknown identity.element="-inf"
import math


def f(a, b):
    return max(-math.inf, a, b)


WITNESS = {
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
