# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# √a·√a + b for a ≥ 0, b − a otherwise: |a| + b. With a ≥ 0 assumed (and b ≥ 0 for
# f(b, a)) it is a + b; really f(−1, 2) = 3 and f(2, −1) = 1.
import math


def f(a, b):
    if a >= 0:
        return math.sqrt(a) * math.sqrt(a) + b
    return b - a


WITNESS = {
    "associative": (1, -2, 0),
    "commutative": (-1, 2),
    "identity": [(0, -1), (1, 0), ("-inf", 0), ("inf", 0)],
    "idempotent": (1,),
    "separable": (1, 2, 0, 1),
}
