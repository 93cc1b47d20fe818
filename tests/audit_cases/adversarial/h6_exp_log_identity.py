# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=refuted|unknown identity.float32=inexact|unknown|not-evaluated
# log(eᵃ·eᵇ) = a + b over the reals, identity 0. In float32 e¹⁰⁰ overflows:
# f(0, 100) = log(∞) = ∞.
import math


def f(a, b):
    return math.log(math.exp(a) * math.exp(b))


WITNESS = {
    "idempotent": (1,),
    "identity.float32": [(0, 100)],
}
