# expect: kind=binary identity=proved|tested|unknown identity.element="-inf" idempotent=refuted|unknown separable=refuted|unknown additively_separable=refuted|unknown
# max(a, b) off the diagonal, a + 0·∞ = NaN on it: f(a, a) is NaN, never a. −∞ is an
# identity (f(−∞, a) = max(−∞, a) = a, as −∞ ≠ a for every real a).
import math


def f(a, b):
    if a != b:
        return max(a, b)
    return a + 0 * math.inf


WITNESS = {
    "idempotent": (1,),
    "separable": (1, 3, 2, 4),
    "additively_separable": (1, 3, 2, 4),
}
