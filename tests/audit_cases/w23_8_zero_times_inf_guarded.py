# expect: kind=binary commutative=proved associative=proved idempotent=refuted
# A product scaled to ∞ with its zeros kept: 0 where a factor is 0 (0·∞ would be NaN),
# else ±∞ with the sign of ab. Symmetric and associative on {0, ±∞} ∪ ℝ.
import math


def f(a, b):
    if a == 0 or b == 0:
        return 0.0
    return (a * math.inf) * b
