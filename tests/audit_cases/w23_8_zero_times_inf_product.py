# expect: kind=binary commutative=proved associative=proved idempotent=refuted
# A product scaled to ∞: (a·∞)·b is ±∞ with the sign of ab, and NaN (0·∞) where a or b
# is 0, whichever way round: the product's laws hold with NaN in the same places.
import math


def f(a, b):
    return (a * math.inf) * b
