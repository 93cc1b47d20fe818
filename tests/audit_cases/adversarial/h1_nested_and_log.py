# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=refuted|unknown separable=refuted|unknown additively_separable=refuted|unknown
# a·b (through logs) where both are positive, a + b elsewhere. Assuming positivity
# everywhere leaves the product: associative, identity 1. Really f(f(2, 2), −1) = 3 and
# f(2, f(2, −1)) = 2, and the identity is 0 (f(0, a) = 0 + a, 0 is not positive).
import math


def f(a, b):
    if a > 0 and b > 0:
        return math.exp(math.log(a) + math.log(b))
    return a + b


WITNESS = {
    "associative": (2, 2, -1),
    "idempotent": (2,),
    "separable": (2, -1, 2, 1),
    "additively_separable": (2, -1, 2, 1),
}
