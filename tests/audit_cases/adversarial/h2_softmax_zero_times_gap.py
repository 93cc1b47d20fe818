# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 2
# The online-softmax merge plus 0·(m − m′), zero for real maxima. With the empty state
# (−∞, 0) the term is 0·(−∞) = NaN. The maximum of an identity would have to lie below
# every real, so there is none.
import math


def combine(a, b):
    m = max(a[0], b[0])
    d = a[1] * math.exp(a[0] - m) + b[1] * math.exp(b[0] - m)
    return m, d + 0 * (a[0] - b[0])


WITNESS = {
    "identity": [(("-inf", 0), (0, 1)), ((0, 0), (-1, 1))],
    "idempotent": ((0, 1),),
}
