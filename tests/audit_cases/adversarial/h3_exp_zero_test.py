# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown identity=refuted|unknown
# exp of a real is never 0, so f = max on the reals; exp(−∞) = 0, so f(−∞, 6) = −∞
# (for an operand above 5).
import math


def f(a, b):
    if math.exp(min(a, b)) == 0 and max(a, b) > 5:
        return a + b
    return max(a, b)


WITNESS = {
    "identity": [("-inf", 6), (0, -1), ("inf", 6)],
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
