# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 2
# Online softmax with one rescale inverted: e^(m − a₀) instead of e^(a₀ − m). At the
# empty state (−∞, 0) that factor is 0·e^∞ = NaN.
import math


def combine(a, b):
    m = max(a[0], b[0])
    return m, a[1] * math.exp(m - a[0]) + b[1] * math.exp(b[0] - m)


WITNESS = {
    "associative": ((1, 1), (0, 1), (1, 1)),
    "commutative": ((0, 1), (1, 1)),
    "identity": [(("-inf", 0), (0, 1)), ((0, 0), (-1, 1))],
    "idempotent": ((0, 1),),
}
