# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 2
# The online-softmax merge, with a branch for exp(m − m′) == 0 that no real pair takes.
# The empty state (−∞, 0) takes it when the other maximum is above 5:
# f((−∞, 0), (6, 1)) = (6, 2). No real state is an identity (its maximum would lie
# below every real).
import math


def combine(a, b):
    if math.exp(a[0] - b[0]) == 0 and b[0] > 5:
        return b[0], b[1] + 1
    m = max(a[0], b[0])
    return m, a[1] * math.exp(a[0] - m) + b[1] * math.exp(b[0] - m)


WITNESS = {
    "identity": [(("-inf", 0), (6, 1)), ((0, 0), (-1, 1))],
    "idempotent": ((0, 1),),
}
