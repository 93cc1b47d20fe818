# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# log(a·b), defined where a·b > 0: additively separable there (log|a| + log|b|).
import math


def f(a, b):
    return math.log(a * b)


WITNESS = {
    "associative": (1, 2, 3),
    "identity": [(1, 2), (2, 1), ("inf", 1)],
    "idempotent": (1,),
    "separable": (1, 2, 2, 3),
}
