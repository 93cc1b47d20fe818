# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# (a·eᵇ + b·eᵃ)/(eᵃ·eᵇ) = a·e⁻ᵃ + b·e⁻ᵇ: the denominator is positive, no assumption.
import math


def f(a, b):
    return (a * math.exp(b) + b * math.exp(a)) / (math.exp(a) * math.exp(b))


WITNESS = {
    "associative": (0, 1, 1),
    "identity": [(0, 1), (1, 0), ("inf", 1)],
    "idempotent": (1,),
    "separable": (0, 1, 0, 1),
}
