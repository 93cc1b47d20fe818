# expect: kind=binary commutative=proved associative=proved idempotent=refuted
# (a + ∞) − (b + ∞) is NaN at every point: two NaN sides agree, so the symmetric laws
# hold, but f(a, a) is NaN, not a.
import math


def f(a, b):
    return (a + math.inf) - (b + math.inf)
